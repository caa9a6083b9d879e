# The web build of the app (emcmake cmake; scripts/build-web.sh; docs/web.md): the engine, the
# window-free model, the panels and the renderer as WebAssembly with WebGL2, linked twice: with
# threads through pthreads (for a cross-origin isolated page: `warpscope serve` sends the headers)
# and with one thread (any other page; index.html picks), the lessons, presets, shaders and fonts
# packed into each program's data file. Included from
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
# In a unity build (build-web.sh's WEB_UNITY=1) the GLFW backend's desktop GL header would come
# before the OpenGL3 backend and turn on its glPolygonMode calls, which WebGL lacks: kept alone.
set_source_files_properties(${WARPSCOPE_IMGUI_SRC}/backends/imgui_impl_opengl3.cpp PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
# WebGL2 is OpenGL ES 3.0: ImGui's renderer takes the ES3 path, as the app's own shaders do.
target_compile_definitions(warpscope_imgui_web PUBLIC IMGUI_IMPL_OPENGL_ES3)
target_include_directories(warpscope_imgui_web SYSTEM PUBLIC "${WARPSCOPE_IMGUI_SRC}" "${WARPSCOPE_CARRIED_INCLUDE}")
target_compile_options(warpscope_imgui_web PRIVATE -w)
target_link_options(warpscope_imgui_web PUBLIC -sUSE_GLFW=3 -sMAX_WEBGL_VERSION=2 -sMIN_WEBGL_VERSION=2)
add_library(warpscope_imgui INTERFACE)
target_link_libraries(warpscope_imgui INTERFACE warpscope_imgui_web)

add_subdirectory(gui)
# A unity build (build-web.sh's WEB_UNITY=1: CMake joins each target's sources into batches of 8)
# puts these two beside a file with a file-local helper of the same name; they are compiled alone.
set_source_files_properties("${CMAKE_SOURCE_DIR}/engine/grade/program_exercise.cpp" TARGET_DIRECTORY warpscope_engine
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
set_source_files_properties("${CMAKE_CURRENT_SOURCE_DIR}/gui/panels/panel_compare.cpp" TARGET_DIRECTORY warpscope_gui_frame
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)

# The page: index.html (ours, copied) loads warpscope.js (or warpscope-st.js), which loads its .wasm,
# warpscope.worker.js (threads) and its .data (the files below, at the paths the app looks for
# them). (Debian's emcc 3.1.6 cannot emit .html itself: its HTML minifier step fails.)
# `warpscope bench`'s engine lines run in the page with ?bench=1 (the CLI's own file).
#
# Two programs from the same objects (scripts/build-web.sh links both into web/):
#  - warpscope-web: warpscope.js/.wasm/.worker.js/.data, pthreads in Web Workers, for a
#    cross-origin isolated page (warpscope serve);
#  - warpscope-web-st: warpscope-st.js/.wasm/.data, one thread, for any other page (a plain static
#    server): linked without -pthread, so its memory is not shared and it needs no
#    SharedArrayBuffer; every std::thread is a fiber on the page's thread (gui/web/green_threads.cpp:
#    Asyncify, and --wrap of the pthread calls that create, join, wait, wake and sleep);
#    gui/web/eh_tls.cpp keeps the exception state where the -pthread objects look for it.
# The objects are compiled once, with -pthread (WebAssembly atomics on an unshared memory are
# valid); only the link differs, so the link flags are per program.
string(REPLACE "-pthread" "" CMAKE_EXE_LINKER_FLAGS "${CMAKE_EXE_LINKER_FLAGS}")
set(_web "${CMAKE_CURRENT_SOURCE_DIR}/gui/web")
# Fonts: where assets/fonts.json looks for them (Debian's fonts-dejavu-core).
set(_fonts "")
foreach(f DejaVuSans.ttf DejaVuSansMono.ttf DejaVuSans-Bold.ttf DejaVuSans-Oblique.ttf)
  if(EXISTS "/usr/share/fonts/truetype/dejavu/${f}")
    list(APPEND _fonts "SHELL:--preload-file /usr/share/fonts/truetype/dejavu/${f}@/usr/share/fonts/truetype/dejavu/${f}")
  endif()
endforeach()
# A lesson, preset or shader edited: the data file is packed again.
file(GLOB_RECURSE _packed CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/lessons/*" "${CMAKE_SOURCE_DIR}/assets/*" "${CMAKE_SOURCE_DIR}/shaders/*")
add_library(warpscope_web_main OBJECT gui/web/main_web.cpp gui/web/web_platform.cpp gui/web/browser_files.cpp cli/cmd_bench.cpp)
target_include_directories(warpscope_web_main PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/cli")
target_link_libraries(warpscope_web_main PUBLIC warpscope_gui_frame)
function(warpscope_web_program target name exports)
  add_executable(${target} $<TARGET_OBJECTS:warpscope_web_main> ${ARGN})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${name} SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/web")
  target_link_libraries(${target} PRIVATE warpscope_gui_frame)
  target_link_options(${target} PRIVATE
    -fexceptions -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=256MB -sMAXIMUM_MEMORY=2GB -sTOTAL_STACK=8MB
    --profiling-funcs -lidbfs.js -sEXPORTED_RUNTIME_METHODS=FS,callMain,ccall,UTF8ToString,stringToUTF8,lengthBytesUTF8,addRunDependency,removeRunDependency
    -sEXPORTED_FUNCTIONS=${exports}
    # (SHELL: keeps CMake from merging the repeated --preload-file flags into one)
    "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/lessons@/warpscope/lessons"
    "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/assets@/warpscope/assets"
    "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/shaders@/warpscope/shaders"
    ${_fonts})
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${_packed})
endfunction()
warpscope_web_program(warpscope-web warpscope _main,_malloc,_free)
target_link_options(warpscope-web PRIVATE -pthread -sPTHREAD_POOL_SIZE=16 -sPTHREAD_POOL_SIZE_STRICT=0 -sDEFAULT_PTHREAD_STACK_SIZE=4MB)
warpscope_web_program(warpscope-web-st warpscope-st _main,_malloc,_free,_warpscope_green_run gui/web/green_threads.cpp gui/web/eh_tls.cpp)
target_link_options(warpscope-web-st PRIVATE -sUSE_PTHREADS=0 -sASYNCIFY)   # after -pthread of CMAKE_CXX_FLAGS, which CMake passes to the link too
foreach(f pthread_create pthread_join pthread_detach pthread_cond_wait pthread_cond_timedwait pthread_cond_signal
          pthread_cond_broadcast sched_yield nanosleep)
  target_link_options(warpscope-web-st PRIVATE "-Wl,--wrap=${f}")
endforeach()
configure_file("${_web}/index.html" "${CMAKE_BINARY_DIR}/web/index.html" COPYONLY)
