# cmake/embed_model.cmake - embed a model bundle directory into a target.
#
#   include(${PROJECT_SOURCE_DIR}/cmake/embed_model.cmake)
#   iosage_embed_model(TARGET iosage DIR ${PROJECT_SOURCE_DIR}/models/default)
#
# Writes ${CMAKE_CURRENT_BINARY_DIR}/embedded_model.c (for TARGET iosage;
# embedded_model_<TARGET>.c for any other target, so that several programs
# can embed a bundle), which defines
# ios_embedded_model() (src/model/embedded.h), and adds it to TARGET. Each
# file of DIR (bundle.json and the XGBoost model files; hidden files are
# left out) is pulled in with the assembler's .incbin, so a bundle of
# several MiB costs no C array to compile. The files go to a read-only
# section of their own, ios_embedded, which the linker places after .rodata:
# in .rodata they sat between the program's constants and the library's,
# and the 2.4 MiB between them spread the strings a command's start-up
# reads over more pages (`iosage dump --all` of the empty log: 81 -> 79
# page faults, 1.5% faster). A changed file rebuilds the
# object (OBJECT_DEPENDS); an added or removed file re-runs the configure
# step (CONFIGURE_DEPENDS glob). When DIR holds no bundle.json the table is
# empty and `iosage detect` asks for --model DIR. Each .json file also gets
# an entry "<name>.bin", its binary form (below; empty for files that are
# not XGBoost models).
#
# Needs a GNU-compatible assembler (gcc or clang on ELF targets).

function(iosage_embed_model)
  cmake_parse_arguments(EMB "" "TARGET;DIR" "" ${ARGN})
  if(NOT EMB_TARGET OR NOT EMB_DIR)
    message(FATAL_ERROR "iosage_embed_model(TARGET t DIR d)")
  endif()
  file(GLOB all_files LIST_DIRECTORIES false CONFIGURE_DEPENDS "${EMB_DIR}/*")
  set(files "")
  foreach(f IN LISTS all_files)
    get_filename_component(name "${f}" NAME)
    # hidden files, and the binary forms `iosage train` writes beside its
    # models: the build makes its own from the JSON (below)
    if(NOT name MATCHES "^\\." AND NOT name MATCHES "\\.bin$")
      list(APPEND files "${f}")
    endif()
  endforeach()
  list(SORT files)
  if(NOT EXISTS "${EMB_DIR}/bundle.json")
    set(files "")
  endif()

  # Beside each .json file, its binary form as "<name>.bin" (empty when the
  # file is not an XGBoost model), written by cmake/tools/model_bin.c at
  # build time: XGBoost's own binary format, checked to give the same
  # trees and outputs back (else UBJSON). XGBoost 1.6 loads it tens of
  # times as fast as the JSON, and every analyze, batch and detect loads
  # the bundle. The loader falls back to the JSON when it is empty. The
  # tool checks each model's hash against bundle.json (the loader trusts a
  # binary form and does not hash the JSON again at every start).
  if(NOT TARGET iosage-model-bin)
    # the check itself is the library's (src/model/xgb_form.c): taken from
    # the static archive, which holds no embedded bundle
    add_executable(iosage-model-bin ${PROJECT_SOURCE_DIR}/cmake/tools/model_bin.c)
    target_include_directories(iosage-model-bin PRIVATE ${PROJECT_SOURCE_DIR}/src/model
                               ${PROJECT_SOURCE_DIR}/src/common ${XGB_INCLUDE_DIRS})
    target_link_libraries(iosage-model-bin PRIVATE iosage_static PkgConfig::JANSSON m)
  endif()
  set(bin_dir "${CMAKE_CURRENT_BINARY_DIR}/model_bin_${EMB_TARGET}")
  set(bin_files "")
  foreach(f IN LISTS files)
    get_filename_component(name "${f}" NAME)
    if(name MATCHES "\\.json$")
      set(u "${bin_dir}/${name}.bin")
      # no leak reports from XGBoost in sanitized builds: a build step
      add_custom_command(OUTPUT "${u}"
        COMMAND ${CMAKE_COMMAND} -E make_directory "${bin_dir}"
        COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0 OMP_NUM_THREADS=1
                $<TARGET_FILE:iosage-model-bin> "${f}" "${u}"
        DEPENDS "${f}" "${EMB_DIR}/bundle.json" iosage-model-bin
        COMMENT "binary form of ${name} (${EMB_TARGET})" VERBATIM)
      list(APPEND bin_files "${u}")
    endif()
  endforeach()

  set(asm "")
  set(decl "")
  set(rows "")
  set(i 0)
  foreach(f IN LISTS files bin_files)
    get_filename_component(name "${f}" NAME)
    string(REPLACE "\\" "\\\\\\\\" esc "${f}")
    string(REPLACE "\"" "\\\\\\\"" esc "${esc}")
    set(sym "ios_embedded_file_${i}")
    string(APPEND asm
      "    \".globl ${sym}, ${sym}_size\\n\"\n"
      "    \".hidden ${sym}, ${sym}_size\\n\"\n"
      "    \".balign 16\\n\"\n"
      "    \"${sym}:\\n\"\n"
      "    \".incbin \\\"${esc}\\\"\\n\"\n"
      "    \"${sym}_end:\\n\"\n"
      "    \".byte 0\\n\"\n"
      "    \".balign 8\\n\"\n"
      "    \"${sym}_size:\\n\"\n"
      "    \".quad ${sym}_end - ${sym}\\n\"\n")
    string(APPEND decl
      "extern const unsigned char ${sym}[];\n"
      "extern const unsigned long long ${sym}_size;\n")
    string(APPEND rows
      "    if (n < cap)\n"
      "        out[n] = (struct iosage_model_file){\"${name}\", ${sym},\n"
      "                                            (size_t)${sym}_size};\n"
      "    n++;\n")
    math(EXPR i "${i} + 1")
  endforeach()

  set(body "/* Generated by cmake/embed_model.cmake from ${EMB_DIR}: do not edit. */\n")
  string(APPEND body "#include <stddef.h>\n\n#include \"model/embedded.h\"\n\n")
  if(files)
    string(APPEND body "__asm__(\".section ios_embedded,\\\"a\\\"\\n\"\n${asm}    \".previous\\n\");\n\n${decl}\n")
  endif()
  string(APPEND body
    "size_t ios_embedded_model(struct iosage_model_file *out, size_t cap)\n"
    "{\n"
    "    size_t n = 0;\n"
    "    (void)out;\n"
    "    (void)cap;\n"
    "${rows}"
    "    return n;\n"
    "}\n")

  if(EMB_TARGET STREQUAL "iosage")
    set(out "${CMAKE_CURRENT_BINARY_DIR}/embedded_model.c")
  else()
    set(out "${CMAKE_CURRENT_BINARY_DIR}/embedded_model_${EMB_TARGET}.c")
  endif()
  file(CONFIGURE OUTPUT "${out}" CONTENT "${body}" @ONLY)
  target_sources(${EMB_TARGET} PRIVATE "${out}" ${bin_files})
  set_source_files_properties("${out}" PROPERTIES OBJECT_DEPENDS "${files};${bin_files}")
  list(LENGTH files n)
  if(n GREATER 0)
    message(STATUS "Embedding the model bundle ${EMB_DIR} (${n} files)")
  else()
    message(STATUS "No model bundle in ${EMB_DIR}: `iosage detect` needs --model DIR")
  endif()
endfunction()
