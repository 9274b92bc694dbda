// generic/add.h
// Seed 000's macro-generic example (the pattern of aten/src/TH/generic/THStorage.h): the
// Vector type and Vector_(add), for whatever num is. Guide: docs/source/internals/macro_generic.rst.

typedef struct Vector
{
num *data;
int n;
} Vector;

extern void Vector_(add)(Vector *C, Vector *A, Vector *B);
