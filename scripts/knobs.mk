# scripts/knobs.mk: checks of the make knobs, in make alone.
#
# Included by the Makefile, scripts/eval.mk and synth/synth.mk.  A knob's
# value is checked before any recipe or $(shell) sees it: numbers as whole
# numbers of digits within a range, names against their list, lists word by
# word.  A value that passes holds only the characters of its class, none of
# which a shell treats specially, so it may stand in a command unquoted.
# Values that may hold any character (a file name: TOPO=file:PATH,
# TRAFFIC=trace:PATH, FAULTS=file:PATH) never stand in a command: the
# Makefile hands them to recipes through the environment ("$$SPIN_NOC_TOPO"),
# so the shell expands them as one word and parses nothing in them.
#
# The checks use no shell: a check that pasted the value into $(shell ...)
# would run what it is meant to stop.  A failed check stops make with
# `FILE:LINE: *** KNOB=VALUE: expected ....  Stop.` and exit status 2.
# Values are make text: `$` is written `$$` on make's command line.

ifndef KNOBS_MK_INCLUDED
KNOBS_MK_INCLUDED := 1

knob_nothing :=
knob_space   := $(knob_nothing) $(knob_nothing)
knob_comma   := ,
knob_digits  := 0 1 2 3 4 5 6 7 8 9
knob_lower   := a b c d e f g h i j k l m n o p q r s t u v w x y z
knob_upper   := A B C D E F G H I J K L M N O P Q R S T U V W X Y Z
# The characters of a name (ROUTING=favors_min, SPIN_MODE=live, ...).
knob_name_chars := $(knob_digits) $(knob_lower) $(knob_upper) _ -
# The characters a build directory may hold and still stand in a command
# and a make target unquoted (BUILD=build).
knob_path_chars := $(knob_name_chars) . + @ /
# The characters of a word that stands in a command unquoted (TOPO=mesh8x8@2,
# FAULTS=1000@5:1,2000@6:3).
knob_word_chars := $(knob_path_chars) : ,
# The other printable ASCII characters, the space apart (for messages).
knob_punct_chars := ! " \# $$ % & ' ( ) * ; < = > ? [ \ ] ^ ` { | } ~

# $(call knob_strip,TEXT,CHARS): TEXT without the characters of the list
# CHARS (one character a word).
knob_strip = $(if $(2),$(call knob_strip,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,$(words $(2)),$(2))),$(1))

# $(call knob_is_empty,TEXT): non-empty when TEXT is exactly empty (a blank,
# a tab or a newline is not empty here, as it is for $(if)).
knob_is_empty = $(findstring x$(1)x,xx)

# $(call knob_only,TEXT,CHARS): non-empty when TEXT is not empty and holds
# only characters of CHARS.
knob_only = $(if $(call knob_is_empty,$(1)),,$(call knob_is_empty,$(call knob_strip,$(1),$(2))))

# $(call knob_show,VALUE): the value, when it is printable ASCII, for a
# message; else a note (control characters are not sent to the terminal).
knob_show = $(if $(call knob_is_empty,$(1)),(empty),$(if $(call knob_is_empty,$(call knob_strip,$(subst $(knob_space),,$(1)),$(knob_word_chars) $(knob_punct_chars))),$(1),(a value with control or non-ASCII characters, not shown)))

# ---- numbers ----
# $(call knob_ndigits,DIGITS): the number of digits.
knob_ndigits = $(words $(call knob_split,$(1)))
# $(call knob_uint,TEXT): non-empty when TEXT is a whole number written with
# digits only, without a leading zero (0 itself apart), at most 20 digits.
knob_uint = $(if $(call knob_only,$(1),$(knob_digits)),$(if $(filter 0%,$(1)),$(filter 0,$(1)),$(if $(word 21,$(call knob_split,$(1))),,y)))
# $(call knob_split,DIGITS): one digit a word.
knob_split = $(subst 0,0 ,$(subst 1,1 ,$(subst 2,2 ,$(subst 3,3 ,$(subst 4,4 ,$(subst 5,5 ,$(subst 6,6 ,$(subst 7,7 ,$(subst 8,8 ,$(subst 9,9 ,$(1)))))))))))
# $(call knob_le,A,B): non-empty when A <= B (whole numbers as knob_uint
# takes them): fewer digits, or as many and A sorts first.
knob_le = $(if $(filter $(call knob_ndigits,$(1)),$(call knob_ndigits,$(2))),$(filter $(1),$(firstword $(sort $(1) $(2)))),$(if $(word $(call knob_ndigits,$(2)),$(call knob_split,$(1))),,y))
# $(call knob_uint_in,TEXT,MIN,MAX): non-empty when TEXT is a whole number
# from MIN to MAX.
knob_uint_in = $(if $(call knob_uint,$(1)),$(and $(call knob_le,$(2),$(1)),$(call knob_le,$(1),$(3))))

# $(call knob_strip0,DIGITS): DIGITS without their leading zeros.
knob_strip0 = $(if $(filter 0%,$(1)),$(call knob_strip0,$(patsubst 0%,%,$(1))),$(1))
# $(call knob_frac01,TEXT): non-empty when TEXT is a decimal number from 0 to
# 1: digits, at most one '.', at least one digit (0, 1, 0.25, .5, 1.0).
knob_frac01 = $(if $(and $(call knob_only,$(1),$(knob_digits) .),$(call knob_strip,$(1),.),$(call knob_onedot,$(1))),$(call knob_frac01_value,$(call knob_strip0,$(patsubst x%,%,$(firstword $(subst ., ,x$(1))))),$(patsubst %x,%,$(word 2,$(subst ., ,$(1)x)))))
knob_onedot = $(if $(call knob_is_empty,$(call knob_strip,$(1),$(knob_digits))),y,$(filter .,$(call knob_strip,$(1),$(knob_digits))))
# integer part without its leading zeros (empty or 1), fraction's digits
knob_frac01_value = $(if $(call knob_is_empty,$(1)),y,$(if $(filter 1,$(1)),$(if $(subst 0,,$(2)),,y)))

# ---- the checks: each stops make with a message naming the knob ----
# A check's last argument, EXPECTED, may hold commas: the arguments from
# there on are joined again (knob_restN: arguments N, N+1, ... and commas).
knob_rest2 = $(2)$(if $(3),$(knob_comma)$(3)$(knob_rest_from4))
knob_rest3 = $(3)$(if $(4),$(knob_comma)$(4)$(knob_rest_from5))
knob_rest4 = $(4)$(if $(5),$(knob_comma)$(5)$(knob_rest_from6))
knob_rest_from4 = $(if $(4),$(knob_comma)$(4)$(knob_rest_from5))
knob_rest_from5 = $(if $(5),$(knob_comma)$(5)$(knob_rest_from6))
knob_rest_from6 = $(if $(6),$(knob_comma)$(6)$(if $(7),$(knob_comma)$(7)$(if $(8),$(knob_comma)$(8)$(if $(9),$(knob_comma)$(9)$(if $(10),$(knob_comma)$(10)$(if $(11),$(knob_comma)$(11)$(if $(12),$(knob_comma)$(12))))))))
# $(call knob_fail,KNOB,EXPECTED); knob_on_fail (the includer's, may be
# empty) is expanded first: the Makefile removes there the outputs of the
# run a refused knob was meant for.
knob_fail = $(knob_on_fail)$(error $(1)=$(call knob_show,$($(1))): expected $(knob_rest2))
# $(call knob_check_uint,KNOB,MIN,MAX,EXPECTED)
knob_check_uint = $(if $(call knob_uint_in,$($(1)),$(2),$(3)),,$(call knob_fail,$(1),$(knob_rest4)))
# $(call knob_check_frac,KNOB,EXPECTED)
knob_check_frac = $(if $(call knob_frac01,$($(1))),,$(call knob_fail,$(1),$(knob_rest2)))
# $(call knob_check_name,KNOB,NAMES,EXPECTED): one of NAMES
knob_check_name = $(if $(and $(call knob_only,$($(1)),$(knob_name_chars)),$(filter $($(1)),$(2))),,$(call knob_fail,$(1),$(knob_rest3)))
# $(call knob_check_list,KNOB,NAMES,EXPECTED): names of NAMES, separated by
# blanks or commas (empty allowed)
knob_check_list = $(if $(call knob_is_empty,$(call knob_strip,$(subst $(knob_space),,$(subst $(knob_comma),,$($(1)))),$(knob_name_chars))),$(if $(filter-out $(2),$(subst $(knob_comma), ,$($(1)))),$(knob_on_fail)$(error $(1)=$(call knob_show,$($(1))): unknown $(filter-out $(2),$(subst $(knob_comma), ,$($(1)))) (known: $(2)))),$(call knob_fail,$(1),$(knob_rest3)))
# $(call knob_check_uints,KNOB,MIN,MAX,EXPECTED): whole numbers from MIN to
# MAX, separated by blanks or commas, at least one
knob_check_uints = $(if $(and $(strip $($(1))),$(call knob_is_empty,$(call knob_strip,$(subst $(knob_space),,$(subst $(knob_comma),,$($(1)))),$(knob_digits)))),$(foreach w,$(subst $(knob_comma), ,$($(1))),$(if $(call knob_uint_in,$(w),$(2),$(3)),,$(call knob_fail,$(1),$(knob_rest4)))),$(call knob_fail,$(1),$(knob_rest4)))
# $(call knob_faults_items,TEXT): non-empty when TEXT (digits, '@', ':' and
# ',' only) is CYCLE@ROUTER:PORT items separated by single commas.
knob_faults_items = $(and $(filter $(words x $(subst $(knob_comma), ,$(1))),$(words $(subst $(knob_comma),x ,$(call knob_strip,$(1),$(knob_digits) @ :)) x x)),$(if $(strip $(foreach w,$(subst $(knob_comma), ,$(1)),$(if $(and $(filter 5,$(words $(subst @, @ ,$(subst :, : ,$(w))))),$(filter @,$(word 2,$(subst @, @ ,$(subst :, : ,$(w))))),$(filter :,$(word 4,$(subst @, @ ,$(subst :, : ,$(w)))))),,bad))),,y))


endif
