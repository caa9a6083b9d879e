# Generates PTX from a .cu file exactly as the committed lesson PTX is made:
#   cmake -DNVCC=nvcc -DSRC=kernel.cu -DOUT=kernel.ptx -P scripts/gen-ptx.cmake
# The .file directives name the source (and files included from its folder) by file name only, so the output does not depend on
# where the repository lives. The target is compute_75 unless the source names another (below).
if(NOT NVCC OR NOT SRC OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DNVCC=... -DSRC=... -DOUT=... -P gen-ptx.cmake")
endif()
get_filename_component(srcdir "${SRC}" DIRECTORY)
get_filename_component(srcname "${SRC}" NAME)
set(tmp "${OUT}.tmp")
get_filename_component(outdir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${outdir}")
# A source that needs a newer target than compute_75 (tensor cores: bf16, tf32, mma.sync, ldmatrix)
# says so on a line of its own: "// warpscope-ptx-arch: sm_90".
file(STRINGS "${SRC}" arch_line REGEX "^// warpscope-ptx-arch: [a-z_0-9]+$" LIMIT_COUNT 1)
set(arch compute_75)
if(arch_line)
  string(REGEX REPLACE "^// warpscope-ptx-arch: " "" arch "${arch_line}")
endif()
execute_process(COMMAND "${NVCC}" -ptx -lineinfo -arch=${arch} "${srcname}" -o "${tmp}"
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
