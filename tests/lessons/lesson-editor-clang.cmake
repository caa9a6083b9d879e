# A lesson loaded as the editor path loads it with no CUDA toolkit: lesson.json, kernel.cu and
# steps.md copied without kernel.ptx, so `warpscope run` compiles kernel.cu when the lesson loads
# with clang (the caller hides the toolkit: PATH without it, CUDA_PATH, CUDA_HOME and WARPSCOPE_NVCC
# unset, and names clang with WARPSCOPE_COMPILER, since NVRTC may still be found); every check must pass.
#   cmake -DCLI=warpscope -DLESSON=<repo>/lessons/<id> -DCHECKS=<how many> -DOUT=<folder> -P lesson-editor-clang.cmake
get_filename_component(id "${LESSON}" NAME)
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}/${id}")
foreach(f lesson.json kernel.cu steps.md)
  file(COPY "${LESSON}/${f}" DESTINATION "${OUT}/${id}")
endforeach()
execute_process(COMMAND "${CLI}" run "${OUT}/${id}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
string(REGEX MATCHALL "check [a-z_0-9]+: PASS" passes "${out}")
list(LENGTH passes n)
if(NOT rc EQUAL 0 OR NOT n EQUAL CHECKS OR out MATCHES "FAIL")
  message(FATAL_ERROR "${id} compiled when loaded did not pass its ${CHECKS} checks")
endif()
if(EXISTS "${OUT}/${id}/kernel.ptx")
  message(FATAL_ERROR "${id}: the committed kernel.ptx was used")
endif()
