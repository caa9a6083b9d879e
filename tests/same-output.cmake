# Runs CMD with ARGS_A and with ARGS_B (lists) and fails unless both exit 0 with identical
# standard output: e.g. a run on one thread against the same run spread over several. Lines
# matching IGNORE (a regex, optional: wall-clock times) are left out of the comparison.
execute_process(COMMAND ${CMD} ${ARGS_A} RESULT_VARIABLE ra OUTPUT_VARIABLE oa ERROR_VARIABLE ea)
execute_process(COMMAND ${CMD} ${ARGS_B} RESULT_VARIABLE rb OUTPUT_VARIABLE ob ERROR_VARIABLE eb)
if(NOT ra EQUAL 0 OR NOT rb EQUAL 0)
  message(FATAL_ERROR "exit codes ${ra} and ${rb}\n${ea}\n${eb}")
endif()
if(IGNORE)
  string(REGEX REPLACE "[^\n]*${IGNORE}[^\n]*" "" oa "${oa}")
  string(REGEX REPLACE "[^\n]*${IGNORE}[^\n]*" "" ob "${ob}")
endif()
if(NOT oa STREQUAL ob)
  message(FATAL_ERROR "outputs differ:\n--- ${ARGS_A}\n${oa}\n--- ${ARGS_B}\n${ob}")
endif()
string(LENGTH "${oa}" n)
message(STATUS "identical outputs (${n} characters)")
