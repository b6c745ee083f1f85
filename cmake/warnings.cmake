# Warnings and sanitizers for every target the project compiles. The C
# flags are the house set; C++ sources (the uturn.hpp test) get the same
# set without the two C-only prototype warnings, and with the sign, cast
# and destructor warnings a C++ wrapper needs.
function(uturn_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wcast-qual
    -Wwrite-strings -Wvla -Wundef
    "$<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes;-Wmissing-prototypes>"
    "$<$<COMPILE_LANGUAGE:CXX>:-Wsign-conversion;-Wold-style-cast;-Wnon-virtual-dtor>")
  if(UTURN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(UTURN_SANITIZE)
  add_compile_options(-fsanitize=${UTURN_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${UTURN_SANITIZE})
endif()
