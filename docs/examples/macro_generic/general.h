// general.h
// Seed 000's macro-generic example: the headers every file needs. Guide: docs/source/internals/macro_generic.rst.
#include <stdio.h>
#include <stdlib.h>
