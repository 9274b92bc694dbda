// generic/add.c
// Seed 000's macro-generic example (the pattern of aten/src/TH/generic/THStorage.cpp): the
// one definition of Vector_(add). Guide: docs/source/internals/macro_generic.rst.

void Vector_(add)(Vector *C, Vector *A, Vector *B)
{
int i, n;
n = C->n;
for(i=0;i<n;i++)
{
C->data[i] = A->data[i] + B->data[i];
}
}
