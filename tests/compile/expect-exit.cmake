# Runs CMD compile SRC with COMPILER and fails unless it exits with EXPECT and prints MATCH.
execute_process(COMMAND "${CMD}" compile "${SRC}" --compiler "${COMPILER}" -o "${OUT}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL EXPECT)
  message(FATAL_ERROR "expected exit code ${EXPECT}, got ${rc}:\n${out}${err}")
endif()
if(MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}':\n${out}${err}")
endif()
