// torch/csrc/api/include/torch/ordered_dict.h - OrderedDict<Key, Value>: a dict that keeps
// insertion order, what named_parameters() returns. Mirrors PyTorch's torch/csrc/api/include/torch/ordered_dict.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <c10/util/Exception.h>

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace torch {

// Why ordered: parameters must come out in registration order (weight before bias, fc1
// before fc2), as Python's dict-backed Module does, so that an optimizer built from
// parameters() sees them in a stable order and printed names read like the source.
template <typename Key, typename Value>
class OrderedDict {
 public:
  class Item {
   public:
    Item(Key key, Value value) : pair_(std::move(key), std::move(value)) {}
    Value& operator*() { return value(); }
    const Value& operator*() const { return value(); }
    Value* operator->() { return &value(); }
    const Value* operator->() const { return &value(); }
    const Key& key() const noexcept { return pair_.first; }
    Value& value() noexcept { return pair_.second; }
    const Value& value() const noexcept { return pair_.second; }
    const std::pair<Key, Value>& pair() const noexcept { return pair_; }

   private:
    std::pair<Key, Value> pair_;
  };

  using Iterator = typename std::vector<Item>::iterator;
  using ConstIterator = typename std::vector<Item>::const_iterator;

  // The description names the kind of key in errors: "Parameter 'weight' already defined".
  explicit OrderedDict(std::string key_description = "Key") : key_description_(std::move(key_description)) {}

  const std::string& key_description() const noexcept { return key_description_; }

  Iterator begin() { return items_.begin(); }
  ConstIterator begin() const { return items_.begin(); }
  Iterator end() { return items_.end(); }
  ConstIterator end() const { return items_.end(); }

  Item& front() {
    TORCH_CHECK(!items_.empty(), "Called front() on an empty OrderedDict");
    return items_.front();
  }
  Item& back() {
    TORCH_CHECK(!items_.empty(), "Called back() on an empty OrderedDict");
    return items_.back();
  }
  Item& operator[](size_t index) {
    TORCH_CHECK(index < items_.size(), "Index ", index, " is out of bounds");
    return items_[index];
  }
  const Item& operator[](size_t index) const {
    TORCH_CHECK(index < items_.size(), "Index ", index, " is out of bounds");
    return items_[index];
  }
  Value& operator[](const Key& key) {
    if (auto* value = find(key)) return *value;
    TORCH_CHECK(false, key_description_, " '", key, "' is not defined");
  }
  const Value& operator[](const Key& key) const {
    if (const auto* value = find(key)) return *value;
    TORCH_CHECK(false, key_description_, " '", key, "' is not defined");
  }

  Value* find(const Key& key) noexcept {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  const Value* find(const Key& key) const noexcept {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  bool contains(const Key& key) const noexcept { return find(key) != nullptr; }

  // A key is inserted once: registering "weight" twice is a bug in the module.
  template <typename K, typename V>
  Value& insert(K&& key, V&& value) {
    TORCH_CHECK(index_.count(key) == 0, key_description_, " '", key, "' already defined");
    items_.emplace_back(Key(std::forward<K>(key)), Value(std::forward<V>(value)));
    index_.emplace(items_.back().key(), items_.size() - 1);
    return items_.back().value();
  }
  Value& insert(Key key, Value&& value) { return insert<Key, Value>(std::move(key), std::move(value)); }

  void clear() {
    index_.clear();
    items_.clear();
  }
  size_t size() const noexcept { return items_.size(); }
  bool is_empty() const noexcept { return items_.empty(); }

  const std::vector<Item>& items() const noexcept { return items_; }
  std::vector<Key> keys() const {
    std::vector<Key> keys;
    for (const auto& item : items_) keys.push_back(item.key());
    return keys;
  }
  std::vector<Value> values() const {
    std::vector<Value> values;
    for (const auto& item : items_) values.push_back(item.value());
    return values;
  }

 private:
  std::unordered_map<Key, size_t> index_;
  std::vector<Item> items_;
  std::string key_description_;
};

}  // namespace torch
