# The tensor-cores lesson with no CUDA toolkit: kernel.cu (with <mma.h> and <cuda_fp16.h>) through
# the clang path into a copy of the lesson, run there; every check must pass. The caller hides the
# toolkit (PATH without it, CUDA_PATH, CUDA_HOME and WARPSCOPE_NVCC unset).
#   cmake -DCLI=warpscope -DLESSON=<repo>/lessons/tensor-cores -DOUT=<folder> -P tensor-cores-clang.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}/tensor-cores")
foreach(f lesson.json kernel.cu steps.md)
  file(COPY "${LESSON}/${f}" DESTINATION "${OUT}/tensor-cores")
endforeach()
execute_process(COMMAND "${CLI}" compile "${LESSON}/kernel.cu" --compiler clang -o "${OUT}/tensor-cores/kernel.ptx"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clang could not compile the lesson's kernel.cu")
endif()
file(READ "${OUT}/tensor-cores/kernel.ptx" ptx)
if(NOT ptx MATCHES "wmma\\.mma\\.sync")
  message(FATAL_ERROR "clang's PTX has no wmma.mma")
endif()
execute_process(COMMAND "${CLI}" run "${OUT}/tensor-cores" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
string(REGEX MATCHALL "check C_[a-z]+: PASS" passes "${out}")
list(LENGTH passes n)
if(NOT rc EQUAL 0 OR NOT n EQUAL 3 OR out MATCHES "FAIL")
  message(FATAL_ERROR "the lesson through clang did not pass its three checks")
endif()
