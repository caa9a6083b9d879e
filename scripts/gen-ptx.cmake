# Generates PTX from a .cu file exactly as the committed lesson PTX is made:
#   cmake -DNVCC=nvcc -DSRC=kernel.cu -DOUT=kernel.ptx -P scripts/gen-ptx.cmake
# The .file directives name the source (and files included from its folder) by file name only, so the output does not depend on
# where the repository lives.
if(NOT NVCC OR NOT SRC OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DNVCC=... -DSRC=... -DOUT=... -P gen-ptx.cmake")
endif()
get_filename_component(srcdir "${SRC}" DIRECTORY)
get_filename_component(srcname "${SRC}" NAME)
set(tmp "${OUT}.tmp")
get_filename_component(outdir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${outdir}")
execute_process(COMMAND "${NVCC}" -ptx -lineinfo -arch=compute_75 "${srcname}" -o "${tmp}"
                WORKING_DIRECTORY "${srcdir}" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS "${tmp}")
  message(FATAL_ERROR "nvcc failed for ${SRC}:\n${err}")
endif()
file(READ "${tmp}" text)
string(REGEX REPLACE "(\\.file[ \t]+1[ \t]+\")[^\"]*/([^\"/]+\")" "\\1\\2" text "${text}")
# Files #included from the source's own folder are named by file name too.
string(REPLACE "\"${srcdir}/" "\"" text "${text}")
file(WRITE "${OUT}" "${text}")
file(REMOVE "${tmp}")
