# Text files (a page's script, its style) embedded in a target as std::string_views, generated
# at build time: an edit to the file rebuilds the target.
#   linkdyn_embed_text(<target> <file> <namespace> <name>)
# defines `extern const std::string_view <namespace>::<name>` holding the file's bytes.
# Run as a script (cmake -P) it writes that definition: -DINPUT -DOUTPUT -DNAMESPACE -DNAME.

if(CMAKE_SCRIPT_MODE_FILE)
  file(READ "${INPUT}" hex HEX)
  string(REPEAT "[0-9a-f]" 32 line_of_16_bytes)
  string(REGEX REPLACE "(${line_of_16_bytes})" "\\1\n" hex "${hex}")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
  file(WRITE "${OUTPUT}"
    "// Generated from ${INPUT} by cmake/embed_text.cmake: edit that file.\n"
    "#include <string_view>\n\n"
    "namespace ${NAMESPACE} {\n"
    "namespace {\n"
    "constexpr char ${NAME}_bytes[] = {\n${bytes}'\\0'};\n"
    "}  // namespace\n"
    "extern const std::string_view ${NAME}(${NAME}_bytes, sizeof ${NAME}_bytes - 1);\n"
    "}  // namespace ${NAMESPACE}\n")
  return()
endif()

set(LINKDYN_EMBED_TEXT_SCRIPT ${CMAKE_CURRENT_LIST_FILE})

function(linkdyn_embed_text target file namespace name)
  if(IS_ABSOLUTE ${file})
    set(input ${file})
  else()
    set(input ${CMAKE_CURRENT_SOURCE_DIR}/${file})
  endif()
  set(output ${CMAKE_CURRENT_BINARY_DIR}/embedded/${name}.cpp)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${output} -DNAMESPACE=${namespace} -DNAME=${name}
            -P ${LINKDYN_EMBED_TEXT_SCRIPT}
    DEPENDS ${input} ${LINKDYN_EMBED_TEXT_SCRIPT}
    COMMENT "Embedding ${name}"
    VERBATIM)
  target_sources(${target} PRIVATE ${output})
endfunction()
