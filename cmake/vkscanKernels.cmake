# Compiles the GLSL compute kernels to SPIR-V at build time and embeds them,
# so the library never reads or compiles a shader at run time. Generated
# files live in the build tree only.
#
# A kernel is declared once, with every build of it:
#
#   vkscan_kernel_type(<glsl suffix> <DataType enumerator>)
#   vkscan_kernel_variant(<name> [FLAGS <kernel_binaries.cpp flag>...]
#                         [DEFINES <D=V>...] [TYPES <suffix>...] [NO_TEXEL])
#   vkscan_add_kernel(STAGE <detail::Stage enumerator> SOURCE <file.comp>
#                     [DEFINES <D=V>...] BINDINGS <address|storage|texel>...)
#   vkscan_kernel_library(TARGET <object library> NAMESPACE <c++ namespace>
#                         INCLUDE_DIRS <dirs...> DEPENDS <includes...>)
#
# Types and variants come first; each vkscan_add_kernel() then builds its
# stage for every binding, variant and type (a variant's TYPES, or all; a
# NO_TEXEL variant has no texel build). `address` kernels reach the tensors
# through device addresses, `storage` ones through storage buffers
# (VKSCAN_SSBO), `texel` ones also load the input through a texel buffer
# (VKSCAN_TEXEL_INPUT). The builds of one (stage, binding) are one group:
# their SPIR-V back to back, compressed into one zstd frame (SPIR-V is very
# repetitive, and builds of one source most of all). vkscan_kernel_library()
# makes the object library holding the groups, with hidden symbols, and
# writes vkscan_kernel_groups.h (the groups) and vkscan_kernel_table.inc (one
# initializer per build, for lib/kernel_binaries.cpp).
#
# vkscan_embed_spirv() embeds uncompressed SPIR-V arrays, for the few kernels
# used outside the scan (the benchmark's, the vector words' copies).
#
# With VKSCAN_SPIRV_FROM set to another build tree of the same sources, the
# groups and arrays that tree has built are embedded from there (a tree built
# without the tools has no benchmark kernels: those are compiled here). A
# lent file older than a source it depends on stops the configuration, so
# that a stale tree never lends its kernels.

set(VKSCAN_KERNELS_PACK_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/vkscanPackKernels.cmake)
# glslang's default adds debug names, which only grow the binaries.
set(VKSCAN_GLSLANG_FLAGS --quiet --target-env vulkan1.2 -g0 -S comp)

function(vkscan_kernel_type suffix data_type)
  set_property(GLOBAL APPEND PROPERTY VKSCAN_KERNEL_TYPES ${suffix})
  set_property(GLOBAL PROPERTY VKSCAN_KERNEL_TYPE_${suffix} ${data_type})
endfunction()

function(vkscan_kernel_variant name)
  cmake_parse_arguments(ARG "NO_TEXEL" "" "FLAGS;DEFINES;TYPES" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY VKSCAN_KERNEL_VARIANTS ${name})
  foreach(field FLAGS DEFINES TYPES NO_TEXEL)
    set_property(GLOBAL PROPERTY VKSCAN_KERNEL_VARIANT_${name}_${field} "${ARG_${field}}")
  endforeach()
endfunction()

# A lent file (VKSCAN_SPIRV_FROM) for `file`, a path under this build tree,
# in `out`: empty where none is lent.
function(vkscan_lent_kernel_file file out)
  set(${out} "" PARENT_SCOPE)
  if(NOT VKSCAN_SPIRV_FROM)
    return()
  endif()
  file(RELATIVE_PATH relative ${PROJECT_BINARY_DIR} ${file})
  set(lent ${VKSCAN_SPIRV_FROM}/${relative})
  if(NOT EXISTS ${lent})
    return()
  endif()
  foreach(source IN LISTS ARGN)
    if(${source} IS_NEWER_THAN ${lent})
      message(FATAL_ERROR "VKSCAN_SPIRV_FROM: ${lent} is older than ${source}; build "
                          "${VKSCAN_SPIRV_FROM} again first, or leave VKSCAN_SPIRV_FROM empty")
    endif()
  endforeach()
  set(${out} ${lent} PARENT_SCOPE)
endfunction()

function(vkscan_add_kernel)
  cmake_parse_arguments(ARG "" "STAGE;SOURCE" "DEFINES;BINDINGS" ${ARGN})
  if(NOT ARG_STAGE OR NOT ARG_SOURCE OR NOT ARG_BINDINGS)
    message(FATAL_ERROR "vkscan_add_kernel: STAGE, SOURCE and BINDINGS are required")
  endif()
  get_property(types GLOBAL PROPERTY VKSCAN_KERNEL_TYPES)
  get_property(variants GLOBAL PROPERTY VKSCAN_KERNEL_VARIANTS)
  if(NOT types OR NOT variants)
    message(FATAL_ERROR "vkscan_add_kernel: declare types and variants first")
  endif()
  get_filename_component(source ${ARG_SOURCE} ABSOLUTE)
  # ChunkLookback -> chunk_lookback
  string(REGEX REPLACE "([a-z0-9])([A-Z])" "\\1_\\2" stage_name ${ARG_STAGE})
  string(TOLOWER ${stage_name} stage_name)

  foreach(binding IN LISTS ARG_BINDINGS)
    if(binding STREQUAL "address")
      set(binding_defines)
      set(storage false)
      set(texel false)
    elseif(binding STREQUAL "storage")
      set(binding_defines VKSCAN_SSBO=1)
      set(storage true)
      set(texel false)
    elseif(binding STREQUAL "texel")
      set(binding_defines VKSCAN_SSBO=1 VKSCAN_TEXEL_INPUT=1)
      set(storage true)
      set(texel true)
    else()
      message(FATAL_ERROR "vkscan_add_kernel: unknown binding '${binding}'")
    endif()
    set(group ${stage_name}_${binding})
    set(group_dir ${VKSCAN_KERNELS_BINARY_DIR}/${group})
    file(MAKE_DIRECTORY ${group_dir})
    set(spirv_files)
    set(commands)
    set(table)
    set(member 0)
    foreach(variant IN LISTS variants)
      get_property(flags GLOBAL PROPERTY VKSCAN_KERNEL_VARIANT_${variant}_FLAGS)
      get_property(variant_defines GLOBAL PROPERTY VKSCAN_KERNEL_VARIANT_${variant}_DEFINES)
      get_property(variant_types GLOBAL PROPERTY VKSCAN_KERNEL_VARIANT_${variant}_TYPES)
      get_property(no_texel GLOBAL PROPERTY VKSCAN_KERNEL_VARIANT_${variant}_NO_TEXEL)
      if(texel AND no_texel)
        continue()
      endif()
      list(JOIN flags " | " flag_expression)
      if(NOT flag_expression)
        set(flag_expression 0)
      endif()
      foreach(type IN LISTS types)
        if(variant_types AND NOT type IN_LIST variant_types)
          continue()
        endif()
        get_property(data_type GLOBAL PROPERTY VKSCAN_KERNEL_TYPE_${type})
        string(TOUPPER ${type} type_upper)
        set(define_flags)
        foreach(define IN ITEMS VKSCAN_TYPE_${type_upper} ${ARG_DEFINES} ${binding_defines}
                                ${variant_defines})
          list(APPEND define_flags -D${define})
        endforeach()
        set(spirv ${group_dir}/${type}_${variant}.spv)
        list(APPEND spirv_files ${spirv})
        list(JOIN define_flags "," define_flags)
        list(APPEND commands "${spirv}|${define_flags}")
        string(APPEND table "{Stage::${ARG_STAGE}, DataType::${data_type}, ${flag_expression}, "
                            "${storage}, ${texel}, &${group}, ${member}},\n")
        math(EXPR member "${member} + 1")
      endforeach()
    endforeach()
    set_property(GLOBAL APPEND PROPERTY VKSCAN_KERNEL_GROUPS ${group})
    set_property(GLOBAL PROPERTY VKSCAN_KERNEL_GROUP_${group}_FILES ${spirv_files})
    set_property(GLOBAL PROPERTY VKSCAN_KERNEL_GROUP_${group}_COMMANDS ${commands})
    set_property(GLOBAL PROPERTY VKSCAN_KERNEL_GROUP_${group}_SOURCE ${source})
    set_property(GLOBAL APPEND_STRING PROPERTY VKSCAN_KERNEL_TABLE "${table}")
  endforeach()
endfunction()

function(vkscan_kernel_library)
  cmake_parse_arguments(ARG "" "TARGET;NAMESPACE" "INCLUDE_DIRS;DEPENDS" ${ARGN})
  find_program(VKSCAN_ZSTD zstd)
  if(NOT VKSCAN_ZSTD)
    message(FATAL_ERROR "zstd not found: vkscan compresses its kernels with the zstd command "
                        "(Debian: apt-get install zstd; scripts/install-deps.sh)")
  endif()
  set(out_dir ${VKSCAN_KERNELS_BINARY_DIR})
  set(include_flags)
  foreach(dir IN LISTS ARG_INCLUDE_DIRS)
    list(APPEND include_flags -I${dir})
  endforeach()

  get_property(groups GLOBAL PROPERTY VKSCAN_KERNEL_GROUPS)
  set(sources)
  set(decls)
  foreach(group IN LISTS groups)
    get_property(spirv_files GLOBAL PROPERTY VKSCAN_KERNEL_GROUP_${group}_FILES)
    get_property(group_source GLOBAL PROPERTY VKSCAN_KERNEL_GROUP_${group}_SOURCE)
    get_property(commands GLOBAL PROPERTY VKSCAN_KERNEL_GROUP_${group}_COMMANDS)
    set(inc ${out_dir}/${group}.inc)
    vkscan_lent_kernel_file(${inc} lent ${group_source} ${ARG_DEPENDS}
                            ${VKSCAN_KERNELS_PACK_SCRIPT} ${CMAKE_CURRENT_LIST_FILE})
    if(lent)
      set(inc ${lent})
    else()
      # One glslang command per member: "<file.spv>|-DA=1,-DB=1".
      foreach(command IN LISTS commands)
        string(REPLACE "|" ";" parts "${command}")
        list(GET parts 0 spirv)
        list(GET parts 1 define_flags)
        string(REPLACE "," ";" define_flags "${define_flags}")
        get_filename_component(spirv_name ${spirv} NAME_WE)
        add_custom_command(
          OUTPUT ${spirv}
          COMMAND ${GLSLANG_VALIDATOR} ${VKSCAN_GLSLANG_FLAGS} ${include_flags} ${define_flags}
                  -o ${spirv} ${group_source}
          DEPENDS ${group_source} ${ARG_DEPENDS}
          COMMENT "glslang: ${group} ${spirv_name}"
          VERBATIM)
      endforeach()
      add_custom_command(
        OUTPUT ${inc}
        COMMAND ${CMAKE_COMMAND} -DZSTD=${VKSCAN_ZSTD} -DOUTPUT=${inc} "-DMEMBERS=${spirv_files}"
                -P ${VKSCAN_KERNELS_PACK_SCRIPT}
        DEPENDS ${spirv_files} ${VKSCAN_KERNELS_PACK_SCRIPT}
        COMMENT "zstd: ${group}"
        VERBATIM)
    endif()
    set(cpp ${out_dir}/${group}.cpp)
    list(LENGTH spirv_files members)
    file(CONFIGURE OUTPUT ${cpp} CONTENT
"// Generated by cmake/vkscanKernels.cmake; do not edit.
#include \"vkscan_kernel_groups.h\"
namespace ${ARG_NAMESPACE} {
namespace {
#include \"${inc}\"
}  // namespace
static_assert(sizeof(kMemberWords) / sizeof(kMemberWords[0]) == ${members},
              \"${inc} holds other builds than kernels/CMakeLists.txt declares\");
const KernelGroup ${group} = {\"${group}\", kCompressed, sizeof(kCompressed),
                              kMemberWords, sizeof(kMemberWords) / sizeof(kMemberWords[0])};
}  // namespace ${ARG_NAMESPACE}
")
    set_source_files_properties(${cpp} PROPERTIES OBJECT_DEPENDS ${inc})
    list(APPEND sources ${cpp})
    string(APPEND decls "extern const KernelGroup ${group};\n")
  endforeach()

  file(CONFIGURE OUTPUT ${out_dir}/vkscan_kernel_groups.h CONTENT
"// Generated by cmake/vkscanKernels.cmake; do not edit.
#pragma once
#include <cstddef>
#include <cstdint>
namespace ${ARG_NAMESPACE} {
// One zstd frame: the SPIR-V of the group's members back to back.
struct KernelGroup {
  const char* name;
  const unsigned char* compressed;
  size_t compressedBytes;
  const uint32_t* memberWords;
  size_t memberCount;
};
${decls}}  // namespace ${ARG_NAMESPACE}
")
  get_property(table GLOBAL PROPERTY VKSCAN_KERNEL_TABLE)
  file(CONFIGURE OUTPUT ${out_dir}/vkscan_kernel_table.inc CONTENT
       "// Generated by cmake/vkscanKernels.cmake; do not edit.\n${table}")

  add_library(${ARG_TARGET} OBJECT ${sources})
  # Kernels are data, not API: none of them is exported.
  set_target_properties(${ARG_TARGET} PROPERTIES POSITION_INDEPENDENT_CODE ON
                                                 CXX_VISIBILITY_PRESET hidden)
  target_include_directories(${ARG_TARGET} PUBLIC $<BUILD_INTERFACE:${out_dir}>)
endfunction()

# vkscan_embed_spirv(
#   TARGET <object-library target>  target to create holding the arrays
#   NAMESPACE <c++ namespace>
#   INCLUDE_DIRS <dirs...>          searched by #include in kernels
#   DEPENDS <files...>              includes that trigger a rebuild
#   KERNELS "<name>|<source.comp>|<D=V>,<D=V>" ...   one entry per array
# )
#
# Each KERNEL becomes `extern const uint32_t* const <name>; extern const size_t <name>_words;`
# declared in <TARGET>.h, with hidden visibility.
function(vkscan_embed_spirv)
  cmake_parse_arguments(ARG "" "TARGET;NAMESPACE" "INCLUDE_DIRS;DEPENDS;KERNELS" ${ARGN})
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET})
  file(MAKE_DIRECTORY ${out_dir})
  set(include_flags)
  foreach(dir IN LISTS ARG_INCLUDE_DIRS)
    list(APPEND include_flags -I${dir})
  endforeach()

  set(sources)
  set(decls)
  foreach(spec IN LISTS ARG_KERNELS)
    # spec: name|source|DEF1=V,DEF2=V
    string(REPLACE "|" ";" parts "${spec}")
    list(GET parts 0 name)
    list(GET parts 1 src)
    list(LENGTH parts nparts)
    set(define_flags)
    if(nparts GREATER 2)
      list(GET parts 2 defs)
      string(REPLACE "," ";" defs "${defs}")
      foreach(d IN LISTS defs)
        list(APPEND define_flags -D${d})
      endforeach()
    endif()
    set(inc ${out_dir}/${name}.inc)
    set(cpp ${out_dir}/${name}.cpp)
    vkscan_lent_kernel_file(${inc} lent ${src} ${ARG_DEPENDS})
    if(lent)
      set(inc ${lent})
    else()
      add_custom_command(
        OUTPUT ${inc}
        COMMAND ${GLSLANG_VALIDATOR} ${VKSCAN_GLSLANG_FLAGS} ${include_flags} ${define_flags}
                --vn ${name}_data -o ${inc} ${src}
        DEPENDS ${src} ${ARG_DEPENDS}
        COMMENT "glslang: ${name}"
        VERBATIM)
    endif()
    file(CONFIGURE OUTPUT ${cpp} CONTENT
"// Generated by cmake/vkscanKernels.cmake; do not edit.
#include <cstddef>
#include <cstdint>
namespace ${ARG_NAMESPACE} {
#include \"${inc}\"
extern const uint32_t* const ${name};
extern const size_t ${name}_words;
const uint32_t* const ${name} = ${name}_data;
const size_t ${name}_words = sizeof(${name}_data) / sizeof(${name}_data[0]);
}
")
    set_source_files_properties(${cpp} PROPERTIES OBJECT_DEPENDS ${inc})
    list(APPEND sources ${cpp})
    string(APPEND decls "extern const uint32_t* const ${name};\nextern const size_t ${name}_words;\n")
  endforeach()

  file(CONFIGURE OUTPUT ${out_dir}/${ARG_TARGET}.h CONTENT
"// Generated by cmake/vkscanKernels.cmake; do not edit.
#pragma once
#include <cstddef>
#include <cstdint>
namespace ${ARG_NAMESPACE} {
${decls}}
")
  add_library(${ARG_TARGET} OBJECT ${sources})
  set_target_properties(${ARG_TARGET} PROPERTIES POSITION_INDEPENDENT_CODE ON
                                                 CXX_VISIBILITY_PRESET hidden)
  target_include_directories(${ARG_TARGET} PUBLIC $<BUILD_INTERFACE:${out_dir}>)
endfunction()
