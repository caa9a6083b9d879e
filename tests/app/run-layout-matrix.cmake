# Renders every layout at one window size and the UI scales 1, 1.5 and 2 from one warpscope-gui
# process (--screenshot-matrix), then checks the geometry of each shot (warpscope_screenshot_check
# --geometry: panels inside the window and not overlapping, every toolbar item visible).
#   cmake -DGUI=... -DCHECK=... -DLESSONS=... -DSIZE=WxH -DOUT=dir -P run-layout-matrix.cmake
find_program(XVFB_RUN xvfb-run)
if(NOT XVFB_RUN)
  message("screenshot test skipped: xvfb-run not installed")
  return()
endif()
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(ENV{WARPSCOPE_LESSONS} "${LESSONS}")
set(ENV{WARPSCOPE_NO_SETTINGS} "1")
set(ENV{LIBGL_ALWAYS_SOFTWARE} "1")
execute_process(
  COMMAND "${XVFB_RUN}" -a -s "-screen 0 1920x1080x24" "${GUI}" --lesson vector-add --steps 40
          --screenshot-matrix "${OUT}" --matrix-sizes "${SIZE}" --matrix-scales 1,1.5,2
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "warpscope-gui exited with ${rc}")
endif()
file(GLOB shots "${OUT}/*.png")
list(LENGTH shots n)
if(n LESS 24)
  message(FATAL_ERROR "expected 8 layouts x 3 scales = 24 screenshots, found ${n}")
endif()
execute_process(COMMAND "${CHECK}" ${shots} --geometry --steps 40
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "layout check failed at ${SIZE}")
endif()
