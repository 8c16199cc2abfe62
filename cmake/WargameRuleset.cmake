# wg_add_ruleset(NAME SOURCES a.cc b.cc [TESTS tests/x_test.cc ...])
# Builds a ruleset's hooks as an OBJECT library whose objects every program
# linking `wg_rulesets` gets (so WG_REGISTER_RULESET's registrar is kept),
# one GoogleTest program per test file, and installs the ruleset's data
# (the installed package links them from wargame_rulesets, WargameInstall.cmake).
function(wg_add_ruleset name)
  cmake_parse_arguments(A "" "ENGINE" "SOURCES;TESTS" ${ARGN})
  # ENGINE hex or table: the ruleset's hooks link that engine (and the core) only.
  set(engine wargame)
  if(A_ENGINE)
    set(engine wargame_${A_ENGINE})
  endif()
  set(lib wg_ruleset_${name})
  add_library(${lib} OBJECT ${A_SOURCES})
  target_link_libraries(${lib} PUBLIC ${engine})
  target_include_directories(${lib} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  wg_set_warnings(${lib})
  target_sources(wg_rulesets INTERFACE $<TARGET_OBJECTS:${lib}>)
  set_property(GLOBAL APPEND PROPERTY WG_RULESET_OBJECT_LIBS ${lib})  # for wargame_rulesets
  target_link_libraries(wg_rulesets INTERFACE wargame)
  if(WG_BUILD_TESTS)
    include(GoogleTest)
    foreach(src ${A_TESTS})
      get_filename_component(test_name ${src} NAME_WE)
      set(exe ${name}_${test_name})
      add_executable(${exe} ${src})
      target_link_libraries(${exe} PRIVATE wargame wg_rulesets GTest::gtest_main GTest::gmock)
      target_include_directories(${exe} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
      target_compile_definitions(${exe} PRIVATE
        WG_RULESET_DIR="${CMAKE_CURRENT_SOURCE_DIR}"
        WG_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
      wg_set_warnings(${exe})
      gtest_discover_tests(${exe} DISCOVERY_TIMEOUT 60)
    endforeach()
  endif()
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/ DESTINATION ${CMAKE_INSTALL_DATADIR}/wargame/rulesets/${name}
    FILES_MATCHING PATTERN "*.yaml" PATTERN "*.md" PATTERN "tests" EXCLUDE)
endfunction()
