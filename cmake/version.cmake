# Bakes the version and the git commit into generated/tdisc_version.hpp (provenance of every file written).
# CMake re-runs this whenever HEAD or the branch it points at moves, so the commit in a rebuilt binary
# is the commit it was built from, not the one of the first configure.
execute_process(COMMAND git rev-parse --short=7 HEAD WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                OUTPUT_VARIABLE TDISC_GIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT TDISC_GIT)
  set(TDISC_GIT "nogit")
else()
  execute_process(COMMAND git symbolic-ref -q HEAD WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE tdisc_ref OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  foreach(tdisc_path HEAD packed-refs ${tdisc_ref})
    execute_process(COMMAND git rev-parse --path-format=absolute --git-path ${tdisc_path}
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE tdisc_file
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(tdisc_file AND EXISTS ${tdisc_file})
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${tdisc_file})
    endif()
  endforeach()
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/tdisc_version.hpp.in ${PROJECT_BINARY_DIR}/generated/tdisc_version.hpp @ONLY)
