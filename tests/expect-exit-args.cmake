# Runs CMD with the ;-separated ARGS and fails unless it exits with EXPECT (for sub-commands other
# than run, e.g. grade: 0 pass, 1 fail, 2 bad input).
execute_process(COMMAND "${CMD}" ${ARGS} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL EXPECT)
  message(FATAL_ERROR "expected exit code ${EXPECT}, got ${rc}")
endif()
