// aten/src/TH/THStorageFunctions.h - the THStorage_(NAME) functions, once per element type.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/THStorageFunctions.h of PyTorch 1.10.
// Guide: docs/source/internals/finding_thstorage.rst.
//
// Seed 000, "An Example finding THStorage": torch/csrc/Storage.cpp -> TH/TH.h -> here ->
// TH/generic/THStorage.h -> c10/core/StorageImpl.h.
#pragma once

#include <TH/THAllocator.h>
#include <TH/THGeneral.h>

// Included here, before any generic file: inside one, scalar_t is a macro that would
// rewrite c10's templates. The generic header includes it again (a no-op) to show where
// THStorage comes from.
#include <c10/core/StorageImpl.h>

// [marker: THStorage_]
// THStorage_(newWithSize) is THFloatStorage_newWithSize while Real is Float.
#define THStorage_(NAME) TH_CONCAT_4(TH, Real, Storage_, NAME)
// [end marker: THStorage_]

// [marker: generate_storage]
// Each generic header is included once per element type: the first line names the file,
// the second includes it with scalar_t/Real set for each type in turn.
#include <TH/generic/THStorage.h>
#include <TH/THGenerateAllTypes.h>

#include <TH/generic/THStorage.h>
#include <TH/THGenerateHalfType.h>

#include <TH/generic/THStorage.h>
#include <TH/THGenerateBoolType.h>
// [end marker: generate_storage]

// The copies are declared after every type's THStorage functions: copyDouble in the
// Float instance calls THDoubleStorage_data.
#include <TH/generic/THStorageCopy.h>
#include <TH/THGenerateAllTypes.h>

#include <TH/generic/THStorageCopy.h>
#include <TH/THGenerateHalfType.h>

#include <TH/generic/THStorageCopy.h>
#include <TH/THGenerateBoolType.h>

// The functions that do not depend on the element type (a storage is bytes).
TH_API void THStorage_retain(THStorage* storage);
TH_API void THStorage_free(THStorage* storage);
TH_API void THStorage_resizeBytes(THStorage* storage, ptrdiff_t size_bytes);
