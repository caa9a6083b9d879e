# The web app built from a native configure (docs/web.md): the `web` target runs
# scripts/build-web.sh, which configures emscripten's own build of the same sources in the
# checkout's build-web/ (once; then incrementally) and links both programs into build-web/web, the
# page `warpscope serve` serves by default and the web tests (tests/web) open.
# WARPSCOPE_WEB: AUTO (default) builds it where emscripten is installed (scripts/setup.sh installs
# it), ON the same but says when it cannot, OFF leaves it out. A folder configured here is a unity
# build at -O1 (about 10 minutes cold on 2 cores instead of about 40 at -O3: docs/web.md, "What CI
# runs"); a faster page for a classroom: `rm -rf build-web && WEB_OPT=-O3 scripts/build-web.sh`.
set(WARPSCOPE_WEB AUTO CACHE STRING "Build the web app with emscripten into build-web/: ON, OFF or AUTO")
set_property(CACHE WARPSCOPE_WEB PROPERTY STRINGS ON OFF AUTO)
set(WARPSCOPE_WEB_DIR "${CMAKE_SOURCE_DIR}/build-web" CACHE PATH "The web build's folder (scripts/build-web.sh's BUILD_WEB_DIR)")
find_program(WARPSCOPE_EMCMAKE emcmake)
set(WARPSCOPE_WEB_BUILT OFF)
if(WARPSCOPE_WEB STREQUAL "OFF")
  message(STATUS "warpscope: web build off (WARPSCOPE_WEB=OFF)")
elseif(NOT WARPSCOPE_EMCMAKE)
  if(WARPSCOPE_WEB STREQUAL "ON")
    message(WARNING "warpscope: WARPSCOPE_WEB=ON but emscripten is not installed (scripts/setup.sh installs it): no web build")
  else()
    message(STATUS "warpscope: web build off (emscripten not installed)")
  endif()
else()
  # Always run: build-web.sh's own ninja decides what is out of date (a second or two when nothing is).
  add_custom_target(web ALL
    COMMAND ${CMAKE_COMMAND} -E env BUILD_WEB_DIR=${WARPSCOPE_WEB_DIR} WEB_UNITY=1 WEB_OPT=-O1
            "${CMAKE_SOURCE_DIR}/scripts/build-web.sh" --if-possible
    USES_TERMINAL COMMENT "Building the web app into ${WARPSCOPE_WEB_DIR}/web (scripts/build-web.sh; -DWARPSCOPE_WEB=OFF skips it)")
  set(WARPSCOPE_WEB_BUILT ON)
  message(STATUS "warpscope: web build on (${WARPSCOPE_WEB_DIR}, emcmake: ${WARPSCOPE_EMCMAKE})")
endif()
set(WARPSCOPE_WEB_BUILT ${WARPSCOPE_WEB_BUILT} PARENT_SCOPE)
