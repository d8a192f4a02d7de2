# The LLM transport (src/llm) against a local fake server
# (tests/llm/fake_llm.py, started by the test itself on a free loopback port).
add_executable(test_llm ${CMAKE_CURRENT_SOURCE_DIR}/llm/test_llm.c)
target_include_directories(test_llm PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_llm PRIVATE iosage_obj ZLIB::ZLIB BZip2::BZip2 m
                      PkgConfig::CMOCKA)
target_compile_definitions(test_llm PRIVATE IOSAGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_test(NAME llm COMMAND test_llm)
set_tests_properties(llm PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77)

# A shell-level client for manual runs against real servers and for the
# script test below (fake_llm.py --script as an end-to-end test uses it).
add_executable(llm_probe ${CMAKE_CURRENT_SOURCE_DIR}/llm/llm_probe.c)
target_include_directories(llm_probe PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(llm_probe PRIVATE iosage_obj ZLIB::ZLIB BZip2::BZip2 m)
add_test(NAME llm_script COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/llm/run_script.sh
         $<TARGET_FILE:llm_probe>)
set_tests_properties(llm_script PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77)
