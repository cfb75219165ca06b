# The layering of lib/ (docs/architecture.md), checked on the sources:
#   - lib/src/<module>/ and lib/include/lgcheck/<module>/ may include headers
#     of their own module and of the modules listed before it below, nothing
#     higher, never lib/kernel/ and never anything of checkers/;
#   - lib/kernel/ (the trusted replay kernel) may include numeric/, model/
#     and kernel/ headers only;
#   - every source file of lib/src/ lies in a module folder;
#   - an include that is not lgcheck/… names a file beside the includer
#     (no climbing out with ../).
# Run: cmake -DLIB_DIR=<lib> -P check_layering.cmake  (the build runs it on
# lib/ before compiling the library; tests run it on broken copies).
cmake_minimum_required(VERSION 3.20)
set(modules numeric model report enumerate semantics quantities average simulate tasks bounds)
set(bad "")

function(check_file file module allowed)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  get_filename_component(dir "${file}" DIRECTORY)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]*)[>\"].*$" "\\1" target "${line}")
    if(target MATCHES "checkers" OR target MATCHES "^\\.\\./" OR target MATCHES "/\\.\\./")
      string(APPEND bad "${file}: ${line}: lib/ includes outside lib/ (checkers/ or ../)\n")
    elseif(target MATCHES "^lgcheck/([a-z_0-9]+)/")
      set(to "${CMAKE_MATCH_1}")
      list(FIND allowed "${to}" found)
      if(found EQUAL -1)
        string(APPEND bad "${file}: ${line}: module ${module} includes ${to}/, which is not below it\n")
      endif()
    elseif(line MATCHES "\"" AND NOT EXISTS "${dir}/${target}")
      string(APPEND bad "${file}: ${line}: a quoted include that is neither lgcheck/… nor beside the file\n")
    endif()
  endforeach()
  set(bad "${bad}" PARENT_SCOPE)
endfunction()

set(below "")
foreach(module IN LISTS modules)
  list(APPEND below "${module}")
  file(GLOB_RECURSE files "${LIB_DIR}/src/${module}/*.cpp" "${LIB_DIR}/src/${module}/*.hpp"
       "${LIB_DIR}/include/lgcheck/${module}/*.hpp")
  foreach(f IN LISTS files)
    check_file("${f}" "${module}" "${below}")
  endforeach()
endforeach()

file(GLOB_RECURSE kernel_files "${LIB_DIR}/kernel/*.cpp" "${LIB_DIR}/kernel/*.hpp")
foreach(f IN LISTS kernel_files)
  check_file("${f}" kernel "numeric;model;kernel")
endforeach()

file(GLOB stray "${LIB_DIR}/src/*.cpp" "${LIB_DIR}/src/*.hpp")
foreach(f IN LISTS stray)
  string(APPEND bad "${f}: a source outside every module folder of lib/src/\n")
endforeach()
file(GLOB dirs LIST_DIRECTORIES true "${LIB_DIR}/src/*" "${LIB_DIR}/include/lgcheck/*")
foreach(d IN LISTS dirs)
  get_filename_component(name "${d}" NAME)
  if(IS_DIRECTORY "${d}" AND NOT name IN_LIST modules)
    string(APPEND bad "${d}: a folder that is no module of the layering\n")
  endif()
endforeach()

if(bad)
  message(NOTICE "${bad}")  # unformatted: one line per violation
  message(FATAL_ERROR "lib/ layering violated (each violation above)")
endif()
message(STATUS "lib/ layering holds: ${modules}")
