// Small open-addressing hash map keyed by MPI handles (ints in MPICH) with
// backward-shift deletion: no allocation per insert on the hot path.
#pragma once

#include <cstdint>
#include <vector>

namespace scalefuzz::inject {

template <class V>
class IntMap {
 public:
  explicit IntMap(std::size_t capacity = 256) { slots_.resize(capacity); }

  V* find(std::int64_t key) {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == key) return &s.value;
    }
  }

  V& insert(std::int64_t key, const V& value) {
    if (V* v = find(key)) return *v = value;
    return insert_absent(key, value);
  }

  // insert() of a key known to be absent (one probe run less).
  V& insert_absent(std::int64_t key, const V& value) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
    std::size_t mask = slots_.size() - 1;
    std::size_t i = hash(key) & mask;
    while (slots_[i].used) i = (i + 1) & mask;
    Slot& s = slots_[i];
    s.key = key;
    s.value = value;
    s.used = true;
    ++size_;
    return s.value;
  }

  bool erase(std::int64_t key) {
    std::size_t mask = slots_.size() - 1;
    std::size_t i = hash(key) & mask;
    while (true) {
      if (!slots_[i].used) return false;
      if (slots_[i].key == key) break;
      i = (i + 1) & mask;
    }
    // Backward shift: move later entries of the probe run into the hole.
    std::size_t hole = i;
    for (std::size_t j = (i + 1) & mask; slots_[j].used; j = (j + 1) & mask) {
      std::size_t home = hash(slots_[j].key) & mask;
      bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole].used = false;
    --size_;
    return true;
  }

  std::size_t size() const { return size_; }

 private:
  struct Slot {
    std::int64_t key = 0;
    V value{};
    bool used = false;
  };
  static std::size_t hash(std::int64_t key) {
    std::uint64_t x = static_cast<std::uint64_t>(key) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(x ^ (x >> 29));
  }
  void rehash(std::size_t capacity) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.resize(capacity);
    size_ = 0;
    for (auto& s : old)
      if (s.used) insert_absent(s.key, s.value);
  }
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace scalefuzz::inject
