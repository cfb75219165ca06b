# Fails when a file under KERNEL_DIR includes a lgcheck/ header outside
# lgcheck/numeric/, lgcheck/model/ and lgcheck/kernel/ (the kernel must not
# see the search code). Run: cmake -DKERNEL_DIR=<dir> -P check_includes.cmake
file(GLOB_RECURSE files "${KERNEL_DIR}/*")
set(bad "")
foreach(f IN LISTS files)
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]lgcheck/")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "[<\"]lgcheck/(numeric|model|kernel)/")
      string(APPEND bad "${f}: ${line}\n")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "the kernel includes a search header:\n${bad}")
endif()
list(LENGTH files n)
message(STATUS "kernel includes only numeric/, model/ and kernel/ headers (${n} files)")
