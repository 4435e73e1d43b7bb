#===- RLXInstall.cmake - what `cmake --install` puts where -----*- cmake -*-===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# `cmake --install build --prefix P` installs the headers (P/include/RLX,
# P/include/rlx-c, with the TableGen'd .inc files), the libraries, the
# tools, the plugin, and the CMake package P/lib/cmake/rlx, so that another
# project's `find_package(RLX CONFIG)` gets imported targets RLX::<library>
# (RLX::RLXMIRDialect, RLX::RLXMIRTransforms, RLX::RLXToLinalg,
# RLX::RLXPipelines, RLX::RLXCPUTarget, RLX::RLXExecutionEngine,
# RLX::rlx_c, ...). Included last by the top-level CMakeLists.txt.
#
#===----------------------------------------------------------------------===#

include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/RLX
                  ${PROJECT_SOURCE_DIR}/include/rlx-c
        DESTINATION include
        FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/RLX
        DESTINATION include
        FILES_MATCHING PATTERN "*.inc" PATTERN "*.h"
        PATTERN "CMakeFiles" EXCLUDE)

# The tools, with those of the targets the build has (RLX_ENABLE_<T>).
set(RLX_INSTALLED_TOOLS rlx-opt rlx-run rlx-compile rlx-lsp-server
    rlx-reduce)
if(RLX_ENABLE_METAL)
  list(APPEND RLX_INSTALLED_TOOLS rlx-translate rlx-metal-cpu-run)
endif()
install(TARGETS ${RLX_INSTALLED_TOOLS} RUNTIME DESTINATION bin)
install(TARGETS rlx-plugin LIBRARY DESTINATION lib)

# Libraries that add_mlir_library does not install itself. add_mlir_library
# puts its libraries into the export set MLIRTargets (named by LLVM's
# helpers); the other libraries join it, and it is installed as
# RLXTargets.cmake with the RLX:: namespace.
set(RLX_PLAIN_LIBRARIES rlx_c rlx_mlir_c rlx_cpu_runtime RLXRuntime
    RLXTensorFile RLXAllPasses)
if(RLX_ENABLE_CUDA)
  list(APPEND RLX_PLAIN_LIBRARIES rlx_cuda_runtime)
endif()
if(RLX_ENABLE_ROCM)
  list(APPEND RLX_PLAIN_LIBRARIES rlx_rocm_runtime)
endif()
install(TARGETS ${RLX_PLAIN_LIBRARIES} EXPORT MLIRTargets
        LIBRARY DESTINATION lib ARCHIVE DESTINATION lib)

# Consumers get the include folders with the targets: the installed RLX
# headers and those of the LLVM and MLIR they were built against.
get_property(rlx_mlir_libraries GLOBAL PROPERTY MLIR_EXPORTS)
foreach(library ${rlx_mlir_libraries} ${RLX_PLAIN_LIBRARIES})
  target_include_directories(${library} INTERFACE
    $<INSTALL_INTERFACE:include>
    $<INSTALL_INTERFACE:${MLIR_INCLUDE_DIRS}>
    $<INSTALL_INTERFACE:${LLVM_INCLUDE_DIRS}>)
endforeach()
# Installed programs and libraries find librlx_cpu_runtime.so and friends
# beside themselves, and libMLIR.so where it was found.
set_target_properties(rlx_c rlx_mlir_c rlx-plugin PROPERTIES
  INSTALL_RPATH "\$ORIGIN;${LLVM_LIBRARY_DIR}")
set_target_properties(${RLX_INSTALLED_TOOLS}
  PROPERTIES INSTALL_RPATH "\$ORIGIN/../lib;${LLVM_LIBRARY_DIR}")

install(EXPORT MLIRTargets FILE RLXTargets.cmake NAMESPACE RLX::
        DESTINATION lib/cmake/rlx)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/RLXConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/rlx/RLXConfig.cmake
  INSTALL_DESTINATION lib/cmake/rlx)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/rlx/RLXConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/rlx/RLXConfig.cmake
              ${PROJECT_BINARY_DIR}/lib/cmake/rlx/RLXConfigVersion.cmake
        DESTINATION lib/cmake/rlx)
