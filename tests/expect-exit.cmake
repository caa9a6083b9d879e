# Runs CMD run ARG and fails unless it exits with EXPECT (exit codes are part of the CLI contract).
execute_process(COMMAND "${CMD}" run "${ARG}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL EXPECT)
  message(FATAL_ERROR "expected exit code ${EXPECT}, got ${rc}")
endif()
