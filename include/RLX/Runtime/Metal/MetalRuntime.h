/*===- MetalRuntime.h - run Metal programs from rlx-compile -------*- C -*-===*\
|*                                                                            *|
|* Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM      *|
|* Exceptions. See the LICENSE file for license information.                  *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * librlx_metal_runtime (macOS only, over Apple's metal-cpp): runs the
 * functions that `rlx-compile --target=metal prog.mlir -o prog.metal`
 * writes, following the host description prog.metal.json. It compiles the
 * MSL at load time (MSL 3.1, fast math off), allocates the temporaries, and
 * encodes each function's launches and copies in order on one command
 * buffer. No MLIR is needed at run time.
 *
 * Never built or run by RLX's CI: no Apple machine exists there.
 */

#ifndef RLX_RUNTIME_METAL_METALRUNTIME_H
#define RLX_RUNTIME_METAL_METALRUNTIME_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rlxMetalProgram rlxMetalProgram;

/* Compiles the MSL at `mslPath` on the system's default device and reads
 * the host description at `hostPath`. Returns NULL on failure, with the
 * message (free it with free) in *error where error is not NULL. */
rlxMetalProgram *rlxMetalLoad(const char *mslPath, const char *hostPath,
                              char **error);

/* Runs `function` on `buffers`: one MTL::Buffer * per argument of the
 * description, inputs then results, each at least the argument's bytes.
 * Waits for the GPU. Returns 0, or -1 with the message in *error. */
int rlxMetalRun(rlxMetalProgram *program, const char *function,
                void *const *buffers, char **error);

void rlxMetalFree(rlxMetalProgram *program);

#ifdef __cplusplus
}
#endif

#endif /* RLX_RUNTIME_METAL_METALRUNTIME_H */
