#include "dwarf_module.hpp"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <cstdlib>
#include <cstring>

namespace scalefuzz::trace::detail {

namespace {

std::string demangle(const char* name) {
  if (name == nullptr) return {};
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) return name;
  std::string s(out);
  std::free(out);
  return s;
}

// The name addr2line -C prints for a subprogram or inlined instance: the
// demangled linkage name, else the plain name (both through abstract origins).
std::string scope_name(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  for (int at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name})
    if (dwarf_attr_integrate(die, at, &attr) != nullptr)
      if (const char* s = dwarf_formstring(&attr)) return demangle(s);
  if (dwarf_attr_integrate(die, DW_AT_name, &attr) != nullptr)
    if (const char* s = dwarf_formstring(&attr)) return s;
  return {};
}

const Dwfl_Callbacks kOffline = {
    dwfl_build_id_find_elf,
    dwfl_standard_find_debuginfo,
    dwfl_offline_section_address,
    nullptr,
};

}  // namespace

struct DwarfModule::State {
  Dwfl* dwfl = nullptr;
  Dwfl_Module* module = nullptr;
  Dwarf_Addr base = 0;  // where the offline module was placed: added to link-time addresses
};

DwarfModule::DwarfModule(const std::string& path) : state_(std::make_unique<State>()) {
  state_->dwfl = dwfl_begin(&kOffline);
  if (state_->dwfl == nullptr) throw TraceError(path + ": libdw: " + dwfl_errmsg(-1));
  state_->module = dwfl_report_offline(state_->dwfl, "", path.c_str(), -1);
  dwfl_report_end(state_->dwfl, nullptr, nullptr);
  if (state_->module == nullptr) {
    const std::string why = dwfl_errmsg(-1);
    dwfl_end(state_->dwfl);
    state_->dwfl = nullptr;
    throw TraceError(path + ": cannot read as ELF: " + why);
  }
  // Link-time addresses are relative to the file's own layout; the offline
  // module may sit elsewhere (its bias).
  Dwarf_Addr bias = 0;
  if (dwfl_module_getelf(state_->module, &bias) != nullptr) state_->base = bias;
  const unsigned char* bits = nullptr;
  GElf_Addr vaddr = 0;
  const int n = dwfl_module_build_id(state_->module, &bits, &vaddr);
  static const char* const kHex = "0123456789abcdef";
  for (int i = 0; i < n; ++i) {
    build_id_ += kHex[bits[i] >> 4];
    build_id_ += kHex[bits[i] & 15];
  }
}

DwarfModule::~DwarfModule() {
  if (state_ && state_->dwfl) dwfl_end(state_->dwfl);
}

Frame DwarfModule::lookup(std::uint64_t address) const {
  Frame f;
  const Dwarf_Addr at = state_->base + address;
  if (Dwfl_Line* line = dwfl_module_getsrc(state_->module, at)) {
    int lineno = 0;
    if (const char* file = dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr)) {
      f.file = file;
      f.line = lineno;
      // A relative name is relative to the compilation directory (as addr2line prints it).
      Dwarf_Attribute attr;
      if (file[0] != '/')
        if (Dwarf_Die* cu = dwfl_linecu(line))
          if (dwarf_attr(cu, DW_AT_comp_dir, &attr) != nullptr)
            if (const char* dir = dwarf_formstring(&attr)) f.file = std::string(dir) + "/" + file;
    }
  }
  Dwarf_Addr cu_bias = 0;
  if (Dwarf_Die* cu = dwfl_module_addrdie(state_->module, at, &cu_bias)) {
    Dwarf_Die* scopes = nullptr;
    const int n = dwarf_getscopes(cu, at - cu_bias, &scopes);
    for (int i = 0; i < n && f.function.empty(); ++i) {  // innermost first
      const int tag = dwarf_tag(&scopes[i]);
      if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) f.function = scope_name(&scopes[i]);
    }
    std::free(scopes);
  }
  if (f.function.empty()) f.function = demangle(dwfl_module_addrname(state_->module, at));  // no DWARF: the symbol
  return f;
}

}  // namespace scalefuzz::trace::detail
