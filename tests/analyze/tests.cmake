# `iosage analyze` end to end: formats, config files, bad input, and the LLM
# step against tests/llm/fake_llm.py (good, wrong pattern, malformed, 429
# then 200, slow).
add_test(NAME analyze
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/run.sh $<TARGET_FILE:iosage>
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(analyze PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
