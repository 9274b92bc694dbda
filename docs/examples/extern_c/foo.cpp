// foo.cpp - seed 000, "Add wrapper in C++ file": a C++ class behind extern "C" functions,
// built into libfoo.so and called from foo.py through ctypes.
// Guide: docs/source/internals/python_meets_c.rst.
#include <iostream>

class Foo{
    public:
        void bar(){
            std::cout << "Hello" << std::endl;
        }
};
// Since ctypes can only talk to C functions, you need
// to provide those declaring them as extern "C"

extern "C" {
    Foo* Foo_new(){ return new Foo(); }
    void Foo_bar(Foo* foo){ foo->bar(); }
    // Not in the seed: without it every Foo_new leaks.
    void Foo_delete(Foo* foo){ delete foo; }
}
