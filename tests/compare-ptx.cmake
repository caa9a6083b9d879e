# Fails when a committed .ptx differs from what this machine's nvcc makes of its .cu.
# Lines that depend on where the toolkit or the repository lives are ignored: .file entries for
# CUDA headers (absolute paths) and the .section debug strings (hashes of absolute paths).
# When the committed file was made by another nvcc release, the check is skipped.
file(READ "${COMMITTED}" committed)
file(READ "${FRESH}" fresh)
string(REGEX MATCH "Cuda compilation tools, release [0-9.]+, V[0-9.]+" v_committed "${committed}")
string(REGEX MATCH "Cuda compilation tools, release [0-9.]+, V[0-9.]+" v_fresh "${fresh}")
if(NOT v_committed STREQUAL v_fresh)
  message("PTX check skipped: ${COMMITTED} was made by '${v_committed}', this machine has '${v_fresh}'")
  return()
endif()
foreach(var committed fresh)
  string(FIND "${${var}}" ".section" cut)
  if(cut GREATER -1)
    string(SUBSTRING "${${var}}" 0 ${cut} ${var})
  endif()
  string(REGEX REPLACE "\n[ \t]*\\.file[ \t]+[0-9]+[ \t]+\"/[^\n]*" "" ${var} "${${var}}")
  # Internal-linkage names (libcu++'s objects, pulled in by cooperative_groups.h) carry a hash of
  # the source's absolute path: _INTERNAL_32e3bcf5_9_kernel_cu_a76d49e4...
  string(REGEX REPLACE "_INTERNAL_[0-9a-f]+_[0-9]+_[A-Za-z0-9_]+_cu_[0-9a-f]+" "_INTERNAL_" ${var} "${${var}}")
endforeach()
if(NOT committed STREQUAL fresh)
  message(FATAL_ERROR "${COMMITTED} is stale: regenerate it with\n  cmake -DNVCC=nvcc -DSRC=<the .cu> -DOUT=${COMMITTED} -P scripts/gen-ptx.cmake")
endif()
message("${COMMITTED} is up to date")
