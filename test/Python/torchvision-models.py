# RUN: %python %s
# torchvision's classification models, small and with random weights,
# imported with rlx.from_torch (torch.fx) and, for those whose ONNX
# import compiles quickly, exported by torch.onnx (opset 17) and imported
# with rlx.from_onnx; each runs on the CPU in float32 and is compared with
# PyTorch's eval output: |rlx - torch| <= 1e-4 * max |torch|. The models
# take their smallest inputs (one image of 32x32, 33x33 for SqueezeNet so
# that its ceil_mode pools read past the input's end), 10 classes, and
# random BatchNorm statistics; ViT is torchvision.models.VisionTransformer
# with 2 layers of 2 heads of width 32 (its zero-initialized head
# randomized). The ONNX imports of MobileNetV2, ShuffleNetV2,
# DenseNet-121 and EfficientNet-B0 (whose compiles take most of the time)
# are left out for CI's time, their ops being those of the others; set
# RLX_TORCHVISION_ALL=1 to run them too.
import io
import os
import sys
import time
import warnings

import numpy as np
import torch

import rlx
import rlxtest

warnings.filterwarnings("ignore")
print("seed", rlxtest.SEED)
torch.manual_seed(rlxtest.SEED)
RTOL = 1e-4
ALL = os.environ.get("RLX_TORCHVISION_ALL") == "1"
failures = []

try:
    import torchvision
except ImportError:
    print("FAIL torchvision is not installed (python3-torchvision)")
    sys.exit(1)

M = torchvision.models
MODELS = [
    # name, constructor, input size, through ONNX too
    ("resnet18", lambda: M.resnet18(num_classes=10), 32, True),
    ("mobilenet_v2", lambda: M.mobilenet_v2(num_classes=10), 32, False),
    ("mobilenet_v3_small", lambda: M.mobilenet_v3_small(num_classes=10), 32,
     True),
    ("shufflenet_v2_x0_5", lambda: M.shufflenet_v2_x0_5(num_classes=10), 32,
     False),
    ("squeezenet1_1", lambda: M.squeezenet1_1(num_classes=10), 33, True),
    ("densenet121", lambda: M.densenet121(num_classes=10), 32, False),
    ("efficientnet_b0", lambda: M.efficientnet_b0(num_classes=10), 32,
     False),
    ("vit", lambda: M.VisionTransformer(
        image_size=32, patch_size=8, num_layers=2, num_heads=2,
        hidden_dim=32, mlp_dim=64, num_classes=10), 32, True),
]


def randomize(model):
    """BatchNorm statistics away from 0 and 1, and weights where
    torchvision initializes zeros (ViT's head, the classifiers' biases)."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.normal_(0.0, 0.1)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.5, 1.5)
                m.bias.normal_(0.0, 0.1)
        for name, p in model.named_parameters():
            if not p.any():
                p.normal_(0.0, 0.1)
    return model.eval()


def from_onnx(model, x):
    f = io.BytesIO()
    torch.onnx.export(model, (x,), f, opset_version=17)
    return rlx.from_onnx(f.getvalue())


start = time.time()
for name, make, size, onnx_too in MODELS:
    model = randomize(make())
    x = torch.randn(1, 3, size, size)
    with torch.no_grad():
        want = model(x).numpy()
    paths = [("torch.fx", lambda: rlx.from_torch(model, (x,)))]
    if onnx_too or ALL:
        paths.append(("onnx", lambda: from_onnx(model, x)))
    for how, load in paths:
        t0 = time.time()
        try:
            got = load()(x.numpy())
        except Exception as error:  # noqa: BLE001 - reported
            failures.append("%s via %s: %s: %s" % (name, how,
                                                   type(error).__name__,
                                                   error))
            continue
        err = np.abs(got.astype(np.float64) - want).max() / \
            np.abs(want).max()
        ok = got.shape == want.shape and err <= RTOL
        print("%s %s via %s: relative error %.1e (%.1f s)" % (
            "ok" if ok else "FAIL", name, how, err, time.time() - t0))
        if not ok:
            failures.append("%s via %s: relative error %.3g, shape %s vs %s"
                            % (name, how, err, got.shape, want.shape))
print("%.0f s in all" % (time.time() - start))

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
