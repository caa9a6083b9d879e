# Runs app-layers.cmake on a tree that breaks each rule (tests/app-layers-fixture) and fails
# unless the check fails and names every violation: the check can fail.
execute_process(COMMAND ${CMAKE_COMMAND} -DAPP=${FIXTURE} -P ${SCRIPT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "the layer check passed a tree that breaks it")
endif()
string(REGEX REPLACE "[ \t\r\n]+" " " text "${out}${err}")
foreach(want "panel_bad.cpp: a panel includes something other than" "panel_bad.cpp: a panel calls the engine \\(timing::computeOccupancy"
             "bad_render.cpp: render includes a panel" "bad_model.cpp: the window-free model includes a window header")
  if(NOT text MATCHES "${want}")
    message(FATAL_ERROR "the layer check did not report '${want}':\n${text}")
  endif()
endforeach()
message(STATUS "the layer check rejects the broken tree")
