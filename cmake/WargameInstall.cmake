# The installed package (find_package(Wargame)): besides the core library
# (libwargame/CMakeLists.txt) it installs
#   Wargame::wargame_rulesets  every built-in ruleset's hooks in one static library;
#                              link Wargame::rulesets, which links it whole so each
#                              WG_REGISTER_RULESET registrar is kept, and adds the
#                              installed data folder to the ruleset search path
#   Wargame::wargame_program   the `wargame` program's code (main included), so
#                              wargame_add_ruleset(... PROGRAM name) builds the same
#                              program with a user's own rulesets
#   bin/wargame                the program, finding share/wargame/rulesets beside it
#   share/wargame/rulesets     every ruleset's YAML (wg_add_ruleset installs them)
#   lib/cmake/Wargame          WargameConfig.cmake, WargameAddRuleset.cmake
# Included at the end of the top-level CMakeLists.txt.

get_property(wg_ruleset_libs GLOBAL PROPERTY WG_RULESET_OBJECT_LIBS)
add_library(wargame_rulesets STATIC)
foreach(lib ${wg_ruleset_libs})
  target_sources(wargame_rulesets PRIVATE $<TARGET_OBJECTS:${lib}>)
endforeach()
target_link_libraries(wargame_rulesets PUBLIC wargame)
set_target_properties(wargame_rulesets PROPERTIES LINKER_LANGUAGE CXX)

set(wg_install_targets wargame_rulesets)
if(TARGET wargame_cli)
  find_package(Threads REQUIRED)
  # The program's own sources (wargame_cli's and wargame_web_lib's, the embedded page
  # included), built once more as a library (ccache makes it cheap).
  set(wg_cli_sources "")
  foreach(t wargame_cli wargame_web_lib)
    if(NOT TARGET ${t})
      continue()
    endif()
    get_target_property(t_sources ${t} SOURCES)
    get_target_property(t_dir ${t} SOURCE_DIR)
    foreach(src ${t_sources})
      if(NOT IS_ABSOLUTE "${src}")
        set(src "${t_dir}/${src}")
      endif()
      list(APPEND wg_cli_sources "${src}")
    endforeach()
  endforeach()
  get_target_property(wg_cli_dir wargame_cli SOURCE_DIR)
  add_library(wargame_program STATIC ${wg_cli_sources})
  if(TARGET wargame_web_assets)
    add_dependencies(wargame_program wargame_web_assets)  # the page is generated in examples/wargame
  endif()
  target_include_directories(wargame_program PRIVATE ${wg_cli_dir} ${PROJECT_SOURCE_DIR}/rulesets)
  target_link_libraries(wargame_program PUBLIC wargame Boost::program_options Threads::Threads)
  # What examples/wargame finds in its own scope (imported targets are directory-scoped).
  find_package(nlohmann_json REQUIRED)
  find_package(OpenSSL REQUIRED)
  find_package(SQLite3 REQUIRED)
  target_link_libraries(wargame_program PRIVATE Boost::headers nlohmann_json::nlohmann_json
                                                OpenSSL::Crypto  # the page server, the fair dice' SHA-256
                                                SQLite::SQLite3)  # `wargame serve --club`
  if("${wg_cli_sources}" MATCHES "club_store_pg.cc")  # `wargame serve --club postgresql://...`
    find_package(PostgreSQL REQUIRED)
    target_compile_definitions(wargame_program PRIVATE WG_HAVE_POSTGRESQL)
    target_link_libraries(wargame_program PRIVATE PostgreSQL::PostgreSQL)
  endif()
  wg_set_warnings(wargame_program)
  list(APPEND wg_install_targets wargame_program)
  install(TARGETS wargame_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(TARGETS ${wg_install_targets} EXPORT WargameTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/cmake/WargameAddRuleset.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Wargame)

# The installed package works: install into a temporary prefix, build
# examples/embed and examples/outpost against it outside the tree, run them,
# the installed `wargame`, and `import wargame` from the prefix.
if(WG_BUILD_TESTS)
  set(wg_python "")
  if(TARGET _wargame)
    set(wg_python ${Python_EXECUTABLE})
  endif()
  add_test(NAME InstallAndEmbed
    COMMAND ${CMAKE_COMMAND}
      -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
      -DBUILD_DIR=${PROJECT_BINARY_DIR}
      -DWORK_DIR=${PROJECT_BINARY_DIR}/tests/install_test
      -DPYTHON=${wg_python}
      -DLAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
      -DSANITIZE=${WG_SANITIZE}
      -P ${PROJECT_SOURCE_DIR}/tests/install_test.cmake)
endif()
