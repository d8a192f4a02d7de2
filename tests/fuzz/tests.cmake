# tests/fuzz/tests.cmake - fuzz targets for the parsers of untrusted input
# other than logs: --config files, an LLM's reply, the report renderer.
#
# Each target is built twice: fuzz_replay_<t> (with replay.c as the driver)
# replays tests/fuzz/corpus-<t>/ under ASan/UBSan on every `make check`;
# with IOSAGE_FUZZ=ON (clang), fuzz_<t> is the libFuzzer executable that
# scripts/fuzz.sh runs (FUZZ_TARGET=<t> make fuzz).
foreach(t config reply report)
  add_executable(fuzz_replay_${t} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_${t}.c
                 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay.c)
  target_include_directories(fuzz_replay_${t} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_definitions(fuzz_replay_${t} PRIVATE
      IOSAGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_link_libraries(fuzz_replay_${t} PRIVATE iosage_obj ZLIB::ZLIB BZip2::BZip2 m)
  add_test(NAME fuzz_replay_${t} COMMAND fuzz_replay_${t}
           ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus-${t})
  set_tests_properties(fuzz_replay_${t} PROPERTIES TIMEOUT 60)

  if(IOSAGE_FUZZ)
    add_executable(fuzz_${t} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_${t}.c)
    target_compile_definitions(fuzz_${t} PRIVATE
        IOSAGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    target_link_libraries(fuzz_${t} PRIVATE iosage_obj ZLIB::ZLIB BZip2::BZip2 m)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
  endif()
endforeach()
