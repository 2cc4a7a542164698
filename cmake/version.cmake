# Bakes the version and the git commit into generated/tdisc_version.hpp (provenance of every file written).
execute_process(COMMAND git rev-parse --short=7 HEAD WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                OUTPUT_VARIABLE TDISC_GIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT TDISC_GIT)
  set(TDISC_GIT "nogit")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/tdisc_version.hpp.in ${PROJECT_BINARY_DIR}/generated/tdisc_version.hpp @ONLY)
