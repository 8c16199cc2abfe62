# The installed package, tried as its users would (cmake/WargameInstall.cmake
# defines the test): install into a temporary prefix; with the source tree's
# rulesets out of reach (WARGAME_RULESETS points nowhere), build and run
#   examples/embed    a game of Stars and Bars: legal actions, apply, save, load, continue;
#   examples/outpost  a ruleset outside the tree registered with wargame_add_ruleset(),
#                     played to the end by its own program and by the `wargame` it builds;
# then the installed `wargame` (installed rulesets, and a data-only ruleset found
# on WARGAME_RULESET_PATH) and `import wargame` from the prefix.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(ENV{WARGAME_RULESETS} ${WORK_DIR}/no-source-tree)

function(run what)
  cmake_parse_arguments(A "" "EXPECT" "COMMAND" ${ARGN})
  execute_process(COMMAND ${A_COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${what}:\n${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${err}")
  endif()
  if(A_EXPECT AND NOT out MATCHES "${A_EXPECT}")
    message(FATAL_ERROR "${what}: the output does not match \"${A_EXPECT}\"")
  endif()
endfunction()

function(build_example name)
  set(flags -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
  if(LAUNCHER)
    list(APPEND flags -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
  endif()
  if(SANITIZE)  # the installed libraries are instrumented: so must the programs be
    list(APPEND flags "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined"
         "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined")
  endif()
  run("configure examples/${name}" COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/${name}
      -B ${WORK_DIR}/${name} ${flags})
  run("build examples/${name}" COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/${name} -j 2)
endfunction()

run("install" COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f lib/cmake/Wargame/WargameConfig.cmake lib/cmake/Wargame/WargameAddRuleset.cmake bin/wargame
          share/wargame/rulesets/stars_and_bars/ruleset.yaml
          share/wargame/rulesets/blue_and_gray/ruleset.yaml
          share/wargame/rulesets/civil_war_miniatures/ruleset.yaml)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

build_example(embed)
run("examples/embed" COMMAND ${WORK_DIR}/embed/embed
    EXPECT "Perryville[^\n]*: [0-9]+ legal actions for Union, e.g. [^\n]+\nsaved after 200 actions and loaded: same state\nthe loaded game played on to the end: [0-9]+ actions, VP [0-9]+-[0-9]+, [^;]+; identical to the unsaved game")

build_example(outpost)
run("examples/outpost: outpost_play" COMMAND ${WORK_DIR}/outpost/outpost_play
    EXPECT "outpost: game over after [0-9]+ actions, VP [0-9]+-[0-9]+, (North wins|South wins|draw)")
run("examples/outpost: wargame-outpost list" COMMAND ${WORK_DIR}/outpost/wargame-outpost list
    EXPECT "outpost.*stars_and_bars|stars_and_bars.*outpost")
run("examples/outpost: wargame-outpost play" COMMAND ${WORK_DIR}/outpost/wargame-outpost play outpost
    --players ai,random --seed 2 EXPECT "result: [^\n]+ after [0-9]+ actions")
run("examples/outpost: wargame-outpost check" COMMAND ${WORK_DIR}/outpost/wargame-outpost check
    ${SOURCE_DIR}/examples/outpost/data EXPECT "ok: ")

# The installed program: installed rulesets, and a data-only ruleset by name.
run("installed wargame list" COMMAND ${prefix}/bin/wargame list EXPECT "civil_war_miniatures")
run("installed wargame check, an installed ruleset folder" COMMAND ${prefix}/bin/wargame check
    ${prefix}/share/wargame/rulesets/stars_and_bars EXPECT "ok: [^\n]*stars_and_bars")
run("installed wargame play" COMMAND ${prefix}/bin/wargame play civil_war_miniatures --players random,random
    --seed 1 EXPECT "result: [^\n]+ after [0-9]+ actions")
file(COPY ${SOURCE_DIR}/examples/outpost/data/ DESTINATION ${WORK_DIR}/user_rulesets/valley)
set(ENV{WARGAME_RULESET_PATH} ${WORK_DIR}/user_rulesets)
run("installed wargame play, a ruleset on WARGAME_RULESET_PATH" COMMAND ${prefix}/bin/wargame play valley
    --players random,random --seed 1 EXPECT "result: [^\n]+ after [0-9]+ actions")
unset(ENV{WARGAME_RULESET_PATH})

if(PYTHON)
  file(GLOB_RECURSE init ${prefix}/lib/*/__init__.py)
  list(FILTER init INCLUDE REGEX "/wargame/__init__.py$")
  if(NOT init)
    message(FATAL_ERROR "the Python package is not installed under ${prefix}/lib")
  endif()
  list(GET init 0 init)
  get_filename_component(package ${init} DIRECTORY)
  get_filename_component(site ${package} DIRECTORY)
  set(ENV{PYTHONPATH} ${site})
  file(WRITE ${WORK_DIR}/import_check.py [=[
import random
import wargame
state = wargame.load_game("blue_and_gray(scenario=chattanooga)").new_initial_state(1)
rng = random.Random(1)
while not state.is_terminal():
    state.apply_action(rng.choice(state.legal_actions()))
print("python:", wargame.__file__, state.returns())
]=])
  run("import wargame from the prefix" COMMAND ${PYTHON} ${WORK_DIR}/import_check.py
      EXPECT "python: ${package}/__init__.py \\[")
endif()
