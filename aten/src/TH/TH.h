// aten/src/TH/TH.h - the legacy TH library in one include.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/TH.h of PyTorch 1.10.
// Guide: docs/source/internals/finding_thstorage.rst (seed 000: Storage.cpp -> TH/TH.h -> ...).
#pragma once

#include <TH/THGeneral.h>

#include <TH/THAllocator.h>
#include <TH/THStorageFunctions.h>
#include <TH/THTensor.h>
