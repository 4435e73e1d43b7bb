/* Calls the compiled entry point of rocm-add.mlir on made-up device
   addresses and prints the stand-in HIP runtime's log of what the
   program's host code did, and the runtime's error. */
#include "add.h"

#include "RLX/Runtime/ROCm/ROCmRuntime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static rlx_memref_f32_2d buffer(uintptr_t address) {
  rlx_memref_f32_2d m = {(float *)address, (float *)address, 0, {64, 256},
                         {256, 1}};
  return m;
}

int main(void) {
  rlx_memref_f32_2d x = buffer(0x1000), y = buffer(0x2000), z = buffer(0x3000);
  _mlir_ciface_add(&x, &y, &z);
  void *hip = dlopen(getenv("RLX_HIP_RUNTIME"), RTLD_NOW | RTLD_NOLOAD);
  const char *(*log)(void) =
      hip ? (const char *(*)(void))dlsym(hip, "fakeHipLog") : NULL;
  printf("%s", log ? log() : "(no HIP log)\n");
  const char *error = rlxRocmGetLastError();
  printf("error: %s\n", error ? error : "none");
  return 0;
}
