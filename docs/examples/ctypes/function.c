// function.c - seed 000, "Compile C program to .so library and call it in python": built
// into libfun.so (docs/examples/CMakeLists.txt), called from function.py through ctypes.
// Guide: docs/source/internals/python_meets_c.rst.
int myFunction(int num)
{
    if (num == 0){
        return 0;
    }
    else{
      if ((num & (num - 1)) == 0)
          return 1;
      else
          return 0;
    }
}
