# Manual pages of pmusim and its subcommands, written from their --help by help2man at build
# time (cmake/make-man.sh) and installed under share/man/man1. Without help2man there are none.
find_program(HELP2MAN help2man)
if(NOT HELP2MAN)
  message(STATUS "help2man not found: no manual pages")
  return()
endif()
set(pmusim_man_pages "")
set(PMUSIM_SUBCOMMANDS
  "run|run a sequence file against a platform"
  "serve|speak the sequence language on stdin and stdout"
  "regs|print the register reference of the models"
  "simulate|run a what-if scenario"
  "sweep|run a scenario over a grid of parameter values"
  "plot|draw a figure from what-if CSV files"
  "compare|put two what-if runs side by side"
  "imc-dt|print the POWER9 IMC device-tree node"
  "firmware|run an AArch64 ELF on a CPU's instruction-set simulator"
  "linux|boot an arm64 Linux kernel and initramfs on a platform"
  "completion|print a shell completion script for pmusim")
foreach(entry "|" ${PMUSIM_SUBCOMMANDS})
  string(REPLACE "|" ";" parts "${entry}")
  list(LENGTH parts n)
  if(entry STREQUAL "|")
    set(page pmusim.1)
    set(args "")
  else()
    list(GET parts 0 sub)
    list(GET parts 1 what)
    set(page pmusim-${sub}.1)
    set(args ${sub} ${what})
  endif()
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/man/${page}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND ${CMAKE_SOURCE_DIR}/cmake/make-man.sh $<TARGET_FILE:pmusim> ${PROJECT_VERSION}
            ${CMAKE_BINARY_DIR}/man/${page} ${args}
    DEPENDS pmusim ${CMAKE_SOURCE_DIR}/cmake/make-man.sh ${CMAKE_SOURCE_DIR}/cmake/man-see-also.h2m
    COMMENT "manual page ${page}" VERBATIM)
  list(APPEND pmusim_man_pages ${CMAKE_BINARY_DIR}/man/${page})
endforeach()
add_custom_target(man ALL DEPENDS ${pmusim_man_pages})
install(FILES ${pmusim_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
