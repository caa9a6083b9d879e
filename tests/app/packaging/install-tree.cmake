# Installs the build into a fresh prefix and runs the installed CLI from another folder, with
# nothing pointing it at the source tree; then moves the prefix and runs it again (the data is
# found relative to the program, so a relocated install works).
#   cmake -DBUILD=<build dir> -DPREFIX=<empty dir to create> -DVERSION=x.y.z -P install-tree.cmake
file(REMOVE_RECURSE "${PREFIX}" "${PREFIX}-moved")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${PREFIX}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}${err}")
endif()

# Every file the issue asks for (the GUI's when it was built).
set(expect
  bin/warpscope
  share/warpscope/lessons/vector-add/lesson.json
  share/warpscope/lessons/vector-add/kernel.ptx
  share/warpscope/assets/fonts.json
  share/warpscope/assets/gpus/h100.json
  share/warpscope/assets/gpus/teaching.json
  share/warpscope/shaders/heatmap.frag
  share/man/man1/warpscope.1.gz
  share/bash-completion/completions/warpscope
  share/doc/warpscope/copyright)
if(EXISTS "${BUILD}/app/gui/warpscope-gui")
  list(APPEND expect bin/warpscope-gui share/applications/warpscope.desktop
    share/metainfo/io.github.warpscope.warpscope.metainfo.xml share/mime/packages/warpscope.xml
    share/icons/hicolor/scalable/apps/warpscope.svg share/icons/hicolor/48x48/apps/warpscope.png
    share/icons/hicolor/256x256/apps/warpscope.png share/man/man1/warpscope-gui.1.gz)
endif()
foreach(f IN LISTS expect)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
if(EXISTS "${PREFIX}/share/warpscope/assets/icons")
  message(FATAL_ERROR "assets/icons belongs in share/icons/hicolor, not share/warpscope")
endif()

# Runs the installed CLI from an empty folder with a clean environment; checks the output.
function(run_cli prefix expect_regex)
  set(work "${prefix}/../install-test-cwd")
  file(MAKE_DIRECTORY "${work}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=WARPSCOPE_LESSONS --unset=WARPSCOPE_GPUS "HOME=${work}"
                          --unset=XDG_CONFIG_HOME "${prefix}/bin/warpscope" ${ARGN}
    WORKING_DIRECTORY "${work}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  string(REPLACE ";" " " shown "${ARGN}")
  message("$ warpscope ${shown}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "installed 'warpscope ${ARGN}' exited with ${rc}")
  endif()
  if(NOT "${out}" MATCHES "${expect_regex}")
    message(FATAL_ERROR "installed 'warpscope ${ARGN}': output does not match '${expect_regex}'")
  endif()
endfunction()

run_cli("${PREFIX}" "vector-add.*reduction" lessons)
# The prefix lies inside the build folder, whose source-tree marker would also find lessons:
# check that the installed copy is the one used.
run_cli("${PREFIX}" "\"path\": \"[^\"]*/prefix/share/warpscope/lessons/vector-add\"" lessons --json)
run_cli("${PREFIX}" "PASS" run vector-add)
run_cli("${PREFIX}" "^warpscope ${VERSION} \\(git [0-9a-f]+|unknown\\)" --version)
# The bundled presets come from the installed assets/gpus, all five.
run_cli("${PREFIX}" "teaching.*v100.*a100.*h100.*rtx4090.*bundled presets from [^;]*share/warpscope/assets/gpus" gpus)
run_cli("${PREFIX}" "timed .* on h100" run reduction --timed --gpu h100)
# A whole CUDA program, linked with the installed lib/warpscope libraries.
run_cli("${PREFIX}" "^2 \\+ 7 = 9\n$" run "${CMAKE_CURRENT_LIST_DIR}/../../programs/add.cu")

file(RENAME "${PREFIX}" "${PREFIX}-moved")
run_cli("${PREFIX}-moved" "PASS" run vector-add)
run_cli("${PREFIX}-moved" "^2 \\+ 7 = 9\n$" run "${CMAKE_CURRENT_LIST_DIR}/../../programs/add.cu")
run_cli("${PREFIX}-moved" "prefix-moved/share/warpscope/lessons/vector-add" lessons --json)
file(RENAME "${PREFIX}-moved" "${PREFIX}")
message("installed tree OK: ${PREFIX}")
