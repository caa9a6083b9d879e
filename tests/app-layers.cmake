# Fails when the app's layers point the wrong way (docs/architecture.md, "The app"):
#   panels -> model -> engine: a panel (app/gui/panels) includes the app's own folders and base/
#     (plain data: Error, launch types), never an engine header, and calls no engine function;
#     what it shows comes from the model (snapshots, background models, views);
#   model (app/gui/model, app/gui/style) is window-free: no panel, render or ImGui header;
#   render (app/gui/render) never includes a panel;
#   the engine never includes the app.
#   cmake -DAPP=<repo>/app -DENGINE=<repo>/engine -P app-layers.cmake
# The engine functions a panel may call: pure names of enum values and metric names (what a label
# prints), listed here one by one.
set(engine_dirs compile ptx mem sim trace timing runtime hw run cudart grade)
set(allowed_calls stallShortName stallMetricName limiterName compilerName isSassVsPtx kindName)

set(errors "")
# mode ALLOW: every include must match `regex`; mode DENY: none may.
function(check_includes folder mode regex what)
  file(GLOB_RECURSE sources "${APP}/${folder}/*.cpp" "${APP}/${folder}/*.hpp")
  foreach(src IN LISTS sources)
    file(RELATIVE_PATH rel "${APP}/.." "${src}")
    file(STRINGS "${src}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[^\"<]*[\"<]([^\">]+)[\">].*$" "\\1" target "${line}")
      set(bad FALSE)
      if(mode STREQUAL "ALLOW" AND NOT target MATCHES "${regex}")
        set(bad TRUE)
      elseif(mode STREQUAL "DENY" AND target MATCHES "${regex}")
        set(bad TRUE)
      endif()
      if(bad)
        string(APPEND errors "${rel}: ${what}: ${line}\n")
      endif()
    endforeach()
  endforeach()
  set(errors "${errors}" PARENT_SCOPE)
endfunction()

# Panels: the app's folders, base/, the generated version header, and system headers (<...>).
list(JOIN engine_dirs "|" engine_alt)
check_includes(gui/panels ALLOW "^(gui/(panels|model|style|render)/|base/|warpscope_version\\.hpp$|[a-z_0-9]+(\\.h|\\.hpp)?$|imgui|GL|GLFW|nlohmann/)"
               "a panel includes something other than the app's model, style, render or base/")
# Panels do not call the engine: no `layer::function(` outside the allowed names.
file(GLOB panel_sources "${APP}/gui/panels/*.cpp" "${APP}/gui/panels/*.hpp")
foreach(src IN LISTS panel_sources)
  file(RELATIVE_PATH rel "${APP}/.." "${src}")
  file(STRINGS "${src}" calls REGEX "(${engine_alt})::[a-z][A-Za-z0-9_]*[ \t]*\\(")
  foreach(line IN LISTS calls)
    string(REGEX MATCHALL "(${engine_alt})::[a-z][A-Za-z0-9_]*[ \t]*\\(" found "${line}")
    foreach(call IN LISTS found)
      string(REGEX REPLACE "^[a-z]+::([A-Za-z0-9_]+).*$" "\\1" fn "${call}")
      list(FIND allowed_calls "${fn}" ok)
      if(ok EQUAL -1)
        string(STRIP "${line}" shown)
        string(APPEND errors "${rel}: a panel calls the engine (${call}...); move it into app/gui/model: ${shown}\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(EXISTS "${APP}/gui/panels")
  file(GLOB using_sources "${APP}/gui/panels/*.cpp" "${APP}/gui/panels/*.hpp")
  foreach(src IN LISTS using_sources)
    file(STRINGS "${src}" usings REGEX "using[ \t]+namespace[ \t]+[a-z:]*(${engine_alt})[ \t]*;")
    foreach(line IN LISTS usings)
      file(RELATIVE_PATH rel "${APP}/.." "${src}")
      string(APPEND errors "${rel}: a panel opens an engine namespace (it would hide engine calls from this check): ${line}\n")
    endforeach()
  endforeach()
endif()

# The model and style: window-free (no panel, render, ImGui, GL or GLFW header).
check_includes(gui/model DENY "^(gui/(panels|render)/|imgui|GL/|GLFW/)" "the window-free model includes a window header")
check_includes(gui/style DENY "^(gui/(panels|render)/|imgui|GL/|GLFW/)" "the window-free style includes a window header")

# Render never includes a panel.
check_includes(gui/render DENY "^gui/panels/" "render includes a panel")

# The engine never includes the app.
if(ENGINE)
  file(GLOB_RECURSE engine_sources "${ENGINE}/*.cpp" "${ENGINE}/*.hpp" "${ENGINE}/*.h")
  foreach(src IN LISTS engine_sources)
    file(STRINGS "${src}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"(gui|cli)/")
    foreach(line IN LISTS includes)
      file(RELATIVE_PATH rel "${ENGINE}/.." "${src}")
      string(APPEND errors "${rel}: the engine includes the app: ${line}\n")
    endforeach()
  endforeach()
endif()

if(errors)
  message(FATAL_ERROR "App layers (panels -> model -> engine; render never includes panels) broken:\n${errors}")
endif()
message(STATUS "app layers point down: panels -> model -> engine")
