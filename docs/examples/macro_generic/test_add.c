// test_add.c - calls both functions the macros made, FloatVector_add and DoubleVector_add.
// Built and run by CTest (examples.macro_generic). Guide: docs/source/internals/macro_generic.rst.
#include "add.h"

int main(void)
{
    float fa[3] = {1.5f, 2.0f, -1.0f}, fb[3] = {0.5f, 0.25f, 1.0f}, fc[3];
    FloatVector A = {fa, 3}, B = {fb, 3}, C = {fc, 3};
    FloatVector_add(&C, &A, &B);

    double da[2] = {0.1, 1e300}, db[2] = {0.2, 1e300}, dc[2];
    DoubleVector DA = {da, 2}, DB = {db, 2}, DC = {dc, 2};
    DoubleVector_add(&DC, &DA, &DB);

    printf("FloatVector_add:  %g %g %g\n", fc[0], fc[1], fc[2]);
    printf("DoubleVector_add: %.17g %g\n", dc[0], dc[1]);
    /* Each type computes in its own precision: 0.1 + 0.2 in double is 0.30000000000000004,
       and 1e300 + 1e300 fits a double (it would be inf in float). */
    if (fc[0] != 2.0f || fc[1] != 2.25f || fc[2] != 0.0f) return 1;
    if (dc[0] != 0.1 + 0.2 || dc[1] != 2e300) return 1;
    if (sizeof(*A.data) != sizeof(float) || sizeof(*DA.data) != sizeof(double)) return 1;
    return 0;
}
