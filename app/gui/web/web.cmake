# The web build of the app (emcmake cmake; scripts/build-web.sh; docs/web.md): the engine, the
# window-free model, the panels and the renderer as WebAssembly with WebGL2, threads through
# pthreads (the page must be cross-origin isolated: `warpscope serve` sends the headers), the
# lessons, presets, shaders and fonts packed into the page's data file. Included from
# app/CMakeLists.txt when EMSCRIPTEN is set; the desktop build never reads this file.

# Dear ImGui from Debian's source package (libimgui-dev has only headers and a native library):
# build-web.sh unpacks it with `apt-get source imgui` and passes the folder.
set(WARPSCOPE_IMGUI_SRC "" CACHE PATH "Dear ImGui's source folder (Debian's imgui source package; scripts/build-web.sh)")
if(NOT EXISTS "${WARPSCOPE_IMGUI_SRC}/imgui.cpp" OR NOT EXISTS "${WARPSCOPE_IMGUI_SRC}/backends/imgui_impl_opengl3.cpp")
  message(FATAL_ERROR "The web build needs Dear ImGui's sources: set WARPSCOPE_IMGUI_SRC (scripts/build-web.sh fetches Debian's with apt-get source imgui)")
endif()
add_library(warpscope_imgui_web STATIC
  ${WARPSCOPE_IMGUI_SRC}/imgui.cpp
  ${WARPSCOPE_IMGUI_SRC}/imgui_draw.cpp
  ${WARPSCOPE_IMGUI_SRC}/imgui_tables.cpp
  ${WARPSCOPE_IMGUI_SRC}/imgui_widgets.cpp
  ${WARPSCOPE_IMGUI_SRC}/imgui_demo.cpp
  ${WARPSCOPE_IMGUI_SRC}/backends/imgui_impl_glfw.cpp
  ${WARPSCOPE_IMGUI_SRC}/backends/imgui_impl_opengl3.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/gui/web/stb_impl.cpp
)
# WebGL2 is OpenGL ES 3.0: ImGui's renderer takes the ES3 path, as the app's own shaders do.
target_compile_definitions(warpscope_imgui_web PUBLIC IMGUI_IMPL_OPENGL_ES3)
target_include_directories(warpscope_imgui_web SYSTEM PUBLIC "${WARPSCOPE_IMGUI_SRC}" "${WARPSCOPE_CARRIED_INCLUDE}")
target_compile_options(warpscope_imgui_web PRIVATE -w)
target_link_options(warpscope_imgui_web PUBLIC -sUSE_GLFW=3 -sMAX_WEBGL_VERSION=2 -sMIN_WEBGL_VERSION=2)
add_library(warpscope_imgui INTERFACE)
target_link_libraries(warpscope_imgui INTERFACE warpscope_imgui_web)

add_subdirectory(gui)

# The page: index.html (ours, copied) loads warpscope.js, which loads warpscope.wasm,
# warpscope.worker.js (threads) and warpscope.data (the files below, at the paths the app looks for
# them). (Debian's emcc 3.1.6 cannot emit .html itself: its HTML minifier step fails.)
# `warpscope bench`'s engine lines run in the page with ?bench=1 (the CLI's own file).
add_executable(warpscope-web gui/web/main_web.cpp gui/web/web_platform.cpp gui/web/browser_files.cpp cli/cmd_bench.cpp)
target_include_directories(warpscope-web PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/cli")
set_target_properties(warpscope-web PROPERTIES OUTPUT_NAME warpscope SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/web")
target_link_libraries(warpscope-web PRIVATE warpscope_gui_frame)
set(_web "${CMAKE_CURRENT_SOURCE_DIR}/gui/web")
# Fonts: where assets/fonts.json looks for them (Debian's fonts-dejavu-core).
set(_fonts "")
foreach(f DejaVuSans.ttf DejaVuSansMono.ttf DejaVuSans-Bold.ttf DejaVuSans-Oblique.ttf)
  if(EXISTS "/usr/share/fonts/truetype/dejavu/${f}")
    list(APPEND _fonts "SHELL:--preload-file /usr/share/fonts/truetype/dejavu/${f}@/usr/share/fonts/truetype/dejavu/${f}")
  endif()
endforeach()
target_link_options(warpscope-web PRIVATE
  -pthread -sPTHREAD_POOL_SIZE=16 -sPTHREAD_POOL_SIZE_STRICT=0
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=256MB -sMAXIMUM_MEMORY=2GB -sTOTAL_STACK=8MB -sDEFAULT_PTHREAD_STACK_SIZE=4MB
  --profiling-funcs -lidbfs.js -sEXPORTED_RUNTIME_METHODS=FS,callMain,ccall,UTF8ToString,stringToUTF8,lengthBytesUTF8,addRunDependency,removeRunDependency -sEXPORTED_FUNCTIONS=_main,_malloc,_free
  # (SHELL: keeps CMake from merging the repeated --preload-file flags into one)
  "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/lessons@/warpscope/lessons"
  "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/assets@/warpscope/assets"
  "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/shaders@/warpscope/shaders"
  ${_fonts})
# A lesson, preset or shader edited: the data file is packed again.
file(GLOB_RECURSE _packed CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/lessons/*" "${CMAKE_SOURCE_DIR}/assets/*" "${CMAKE_SOURCE_DIR}/shaders/*")
set_property(TARGET warpscope-web APPEND PROPERTY LINK_DEPENDS ${_packed})
configure_file("${_web}/index.html" "${CMAKE_BINARY_DIR}/web/index.html" COPYONLY)
