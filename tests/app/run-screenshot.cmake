# Renders one lesson with warpscope-gui under Xvfb and checks the PNG and its sidecar.
#   cmake -DGUI=... -DCHECK=... -DLESSONS=... -DLESSON=id -DSTEPS=n -DOUT=file.png -P run-screenshot.cmake
# Optional: -DEXTRA=--layout,memory,... more app options (comma-separated), -DPANELS=a,b,c the panels that must draw,
# -DEXPECT=PTR=VALUE|PTR~REGEX|PTR>N... what the sidecar must say ('|'-separated; screenshot_check --expect).
# An empty STEPS leaves the step count unchecked (a Show why runs the learner's file).
# A LESSON that is a .cu or .ptx file is opened as a PATH: in the kernel editor.
find_program(XVFB_RUN xvfb-run)
if(NOT XVFB_RUN)
  message("screenshot test skipped: xvfb-run not installed")
  return()
endif()
string(REPLACE "," ";" EXTRA "${EXTRA}")
set(steps_args "")
if(NOT "${STEPS}" STREQUAL "")
  set(steps_args --steps "${STEPS}")
endif()
set(expect_args "")
if(EXPECT)
  string(REPLACE "|" ";" expect_list "${EXPECT}")
  foreach(e IN LISTS expect_list)
    list(APPEND expect_args --expect "${e}")
  endforeach()
endif()
get_filename_component(outdir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${outdir}")
file(REMOVE "${OUT}" "${OUT}.json")
set(ENV{WARPSCOPE_LESSONS} "${LESSONS}")
set(ENV{WARPSCOPE_NO_SETTINGS} "1")
set(ENV{LIBGL_ALWAYS_SOFTWARE} "1")
set(open --lesson "${LESSON}")
if(LESSON MATCHES "\\.(cu|ptx)$")
  set(open "${LESSON}")
endif()
execute_process(
  COMMAND "${XVFB_RUN}" -a -s "-screen 0 1920x1080x24" "${GUI}" ${open} ${steps_args}
          --screenshot "${OUT}" --size 1600x1000 ${EXTRA}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 100)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "warpscope-gui exited with ${rc}")
endif()
if(NOT PANELS)
  set(PANELS controls,status,lessons,source,divergence,grid,warp)
endif()
execute_process(COMMAND "${CHECK}" "${OUT}" ${steps_args}
                        --panels ${PANELS} ${expect_args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "screenshot check failed for ${LESSON}")
endif()
