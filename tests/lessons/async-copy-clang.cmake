# The async-copy lesson with no CUDA toolkit: kernel.cu (with <cuda_pipeline.h>) through
# the clang path into a copy of the lesson, run there; every check must pass. The caller hides the
# toolkit (PATH without it, CUDA_PATH, CUDA_HOME and WARPSCOPE_NVCC unset).
#   cmake -DCLI=warpscope -DLESSON=<repo>/lessons/async-copy -DOUT=<folder> -P async-copy-clang.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}/async-copy")
foreach(f lesson.json kernel.cu steps.md)
  file(COPY "${LESSON}/${f}" DESTINATION "${OUT}/async-copy")
endforeach()
execute_process(COMMAND "${CLI}" compile "${LESSON}/kernel.cu" --compiler clang -o "${OUT}/async-copy/kernel.ptx"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clang could not compile the lesson's kernel.cu")
endif()
file(READ "${OUT}/async-copy/kernel.ptx" ptx)
if(NOT ptx MATCHES "cp\\.async\\.ca\\.shared\\.global")
  message(FATAL_ERROR "clang's PTX has no cp.async")
endif()
execute_process(COMMAND "${CLI}" run "${OUT}/async-copy" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
string(REGEX MATCHALL "check C_[a-z]+: PASS" passes "${out}")
list(LENGTH passes n)
if(NOT rc EQUAL 0 OR NOT n EQUAL 2 OR out MATCHES "FAIL")
  message(FATAL_ERROR "the lesson through clang did not pass its two checks")
endif()
