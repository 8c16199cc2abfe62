# wargame_add_ruleset(NAME SOURCES hooks.cc ... [DATA folder] [PROGRAM exe] [ENGINE hex|table])
#
# For a ruleset of your own, outside libwargame's tree, built against the
# installed package (find_package(Wargame CONFIG REQUIRED) defines this):
#   - builds the hooks as an OBJECT library `wargame_ruleset_<NAME>`; link it
#     into your programs and its WG_REGISTER_RULESET registrar registers NAME;
#   - defines WARGAME_RULESET_DATA_DIR for the hooks: the absolute DATA folder
#     (default: the calling CMakeLists' folder), the one holding ruleset.yaml;
#     register it as the ruleset's folder (RulesetInfo::folder) so the data is
#     found wherever the program runs;
#   - with PROGRAM exe: also builds `exe`, the `wargame` program (play, check,
#     render, odds, simulate, ...) with the installed rulesets and this one.
function(wargame_add_ruleset name)
  cmake_parse_arguments(A "" "DATA;PROGRAM;ENGINE" "SOURCES" ${ARGN})
  # ENGINE hex or table: the hooks link that engine (Wargame::hex, Wargame::table)
  # and the core; without it, every engine (Wargame::wargame).
  set(engine Wargame::wargame)
  if(A_ENGINE)
    set(engine Wargame::${A_ENGINE})
  endif()
  if(NOT A_SOURCES)
    message(FATAL_ERROR "wargame_add_ruleset(${name}): SOURCES is required (the hooks' .cc files)")
  endif()
  if(NOT A_DATA)
    set(A_DATA ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  get_filename_component(data "${A_DATA}" ABSOLUTE)
  if(NOT EXISTS "${data}/ruleset.yaml")
    message(FATAL_ERROR "wargame_add_ruleset(${name}): no ruleset.yaml in ${data}")
  endif()
  set(lib wargame_ruleset_${name})
  add_library(${lib} OBJECT ${A_SOURCES})
  target_link_libraries(${lib} PUBLIC ${engine})
  target_compile_features(${lib} PUBLIC cxx_std_20)
  target_compile_definitions(${lib} PRIVATE WARGAME_RULESET_DATA_DIR="${data}")
  if(A_PROGRAM)
    add_executable(${A_PROGRAM})
    target_link_libraries(${A_PROGRAM} PRIVATE ${lib} Wargame::rulesets Wargame::wargame_program)
  endif()
endfunction()
