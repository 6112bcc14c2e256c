#!/usr/bin/env python3
"""Generates the PMPI wrappers and the op-id table from mpi_table.py.

usage: generate.py TABLE.py OUT_DIR
writes OUT_DIR/wrappers.cpp, OUT_DIR/ops.cpp and OUT_DIR/scalefuzz/trace/ops.hpp
(stdlib only; run by CMake at build time).
"""
import os
import re
import runpy
import sys

ROLES = {
    "sbuf", "rbuf", "buf", "scount", "rcount", "count", "stype", "rtype", "type",
    "scounts", "rcounts", "rcounts_mine", "stypes", "rtypes", "dest", "source",
    "tag", "rtag", "comm", "newcomm", "root", "req", "reqs", "nreq", "index",
    "indices", "outcount", "flag", "status", "statuses", "message", "provided",
    "rop", "hout", "hin", "position", "color", "ndims", "dims",
    # one-sided communication (RmaCall, recorder/handlers_rma.cpp)
    "win", "winout", "target", "tdisp", "tcount", "ttype", "base", "baseout",
    "wsize", "dispunit", "locktype", "assertion", "group",
}
HANDLERS = {
    "init", "finalize", "abort", "send", "recv", "sendrecv", "isend", "irecv",
    "send_init", "recv_init", "start", "startall", "probe", "iprobe", "mprobe",
    "improbe", "mrecv", "imrecv", "wait", "waitall", "waitany", "waitsome",
    "test", "testall", "testany", "testsome", "request_free", "cancel", "coll",
    "icoll", "comm_new", "comm_free", "handle_new", "handle_free", "type_commit",
    "pack", "win_new", "win_free", "win_attach", "rma", "rma_sync",
}
# Handlers of one-sided calls: their wrappers fill an RmaCall (a Call with the
# window's arguments), so the other wrappers' Call stays as small as it was.
RMA_HANDLERS = {"win_new", "win_free", "win_attach", "rma", "rma_sync"}
OPTIONS = {"cls", "flags", "nb", "root_side", "per_rank", "emulated", "hkind", "zero_buffer", "single"}
PROTO = re.compile(r"^\s*int\s+(MPI_\w+)\s*\((.*)\)\s*$")


class Param:
    def __init__(self, text):
        role = None
        if "@" in text:
            text, role = text.rsplit("@", 1)
            role = role.strip()
            if role not in ROLES:
                raise ValueError(f"unknown role {role!r}")
        self.decl = text.strip()
        self.role = role
        m = re.match(r"^(.*?)(\w+)\s*(\[\])?(\[\d+\])?$", self.decl)
        if not m:
            raise ValueError(f"cannot parse parameter {text!r}")
        self.name = m.group(2)


def parse(entry):
    proto, handler, opts = entry
    m = PROTO.match(proto)
    if not m:
        raise ValueError(f"cannot parse prototype {proto!r}")
    name, plist = m.group(1), m.group(2).strip()
    params = [] if plist in ("", "void") else [Param(p) for p in plist.split(",")]
    unknown = set(opts) - OPTIONS
    if unknown:
        raise ValueError(f"{name}: unknown options {sorted(unknown)}")
    if handler not in HANDLERS:
        raise ValueError(f"{name}: unknown handler {handler!r}")
    return name, params, handler, opts


def role_assignments(params):
    out = []
    for p in params:
        r, n = p.role, p.name
        if r is None:
            continue
        if r == "buf":
            out += [f"c_.sbuf = {n};", f"c_.rbuf = {n};"]
        elif r == "count":
            out += [f"c_.scount = {n};", f"c_.rcount = {n};", "c_.shared_count = true;"]
        elif r == "type":
            out += [f"c_.stype = {n};", f"c_.rtype = {n};"]
        elif r == "rop":
            out += [f"c_.rop = {n};", "c_.has_rop = true;"]
        elif r in ("hout", "hin"):
            out.append(f"c_.{r} = static_cast<void*>({n});")
        elif r == "color":
            out += [f"c_.color = {n};", "c_.has_color = true;"]
        elif r == "rcounts_mine":
            out += [f"c_.rcounts = {n};", "c_.rcounts_mine = true;"]
        else:
            out.append(f"c_.{r} = {n};")
    return out


def gen_wrapper(op_id, name, params, handler, opts):
    decl = ", ".join(p.decl for p in params) or "void"
    args = ", ".join(p.name for p in params)
    short = name[4:]
    lines = [f"extern \"C\" SCALEFUZZ_EXPORT int {name}({decl}) {{",
             "  ::scalefuzz::inject::ReentryGuard guard_;"]
    if handler == "init":
        lines.append(f"  if (!guard_.outermost()) return P{name}({args});")
    else:
        lines.append(f"  if (!guard_.enabled()) return P{name}({args});")
        # Guarded receives: their pages open for the call (recorder/receive_guard.hpp).
        lines.append("  ::scalefuzz::inject::GuardWindow window_;")
        if handler not in ("finalize", "abort"):
            lines.append("  ::scalefuzz::inject::stall_check();  // injectors/stall")
    lines.append("  ::scalefuzz::inject::RmaCall c_;" if handler in RMA_HANDLERS else "  ::scalefuzz::inject::Call c_;")
    lines.append(f"  c_.op = ops::{short};")
    lines.append(f"  c_.cls = OpClass::{opts['cls']};")
    flags = opts.get("flags", [])
    if flags:
        lines.append(f"  c_.flags = {' | '.join(flags)};")
    per_rank = opts.get("per_rank")
    if per_rank in ("send", "both"):
        lines.append("  c_.per_rank_send = true;")
    if per_rank in ("recv", "both"):
        lines.append("  c_.per_rank_recv = true;")
    if opts.get("hkind"):
        lines.append(f"  c_.hkind = static_cast<std::int32_t>(::scalefuzz::trace::HandleKind::{opts['hkind']});")
    side = opts.get("root_side")
    if side:
        lines.append(f"  c_.root_side = ::scalefuzz::inject::RootSide::{side.capitalize()};")
    if opts.get("single"):
        # Fetch_and_op / Compare_and_swap: one element of the datatype.
        lines += ["  c_.scount = 1;", "  c_.rcount = 1;", "  c_.tcount = 1;"]
    lines += ["  " + a for a in role_assignments(params)]
    # Status outputs go through the Call so a handler can substitute its own
    # buffer when the application passes MPI_STATUS(ES)_IGNORE.
    # So are the receive envelope's source and tags: a replay posts a
    # wildcard receive with the recorded source (injectors/replay).
    through_call = ("status", "statuses", "source", "tag", "rtag")
    call_args = ", ".join(f"c_.{p.role}" if p.role in through_call else p.name for p in params)
    invoke_body = f"P{name}({call_args})"
    nb = opts.get("nb")
    if nb:
        for p in params:
            if p.role in ("source", "tag", "rtag"):
                nb = re.sub(rf"\b{p.name}\b", f"c_.{p.role}", nb)
    nb_body = nb.format(req="req_...") if nb else None
    zb = opts.get("zero_buffer")
    if zb:
        # Zero-buffer mode (SCALEFUZZ_NOISE_ZERO_BUFFER=1): a standard send runs as
        # its synchronous twin, so sends never complete before being matched.
        zname, znb = zb
        if znb:
            for p in params:
                if p.role in ("source", "tag", "rtag"):
                    znb = re.sub(rf"\b{p.name}\b", f"c_.{p.role}", znb)
        lines.append("  if (::scalefuzz::inject::g_zero_buffer) c_.flags |= kFlagSynchronous;")
        invoke_body = f"::scalefuzz::inject::g_zero_buffer ? P{zname}({call_args}) : {invoke_body}"
        if nb:
            nb_body = f"::scalefuzz::inject::g_zero_buffer ? {znb.format(req='req_...')} : {nb_body}"
    if nb:
        # One closure for the call and its nonblocking twin (oversubscription
        # mode): the wrapper builds one capture list instead of two.
        lines.append(f"  auto invoke_ = [&](auto... req_) -> int {{ if constexpr (sizeof...(req_) == 0) "
                     f"return {invoke_body}; else return {nb_body}; }};")
        invoke, nb_invoke = "invoke_", "invoke_"
    else:
        invoke, nb_invoke = f"[&]() {{ return {invoke_body}; }}", "nullptr"
    if handler != "init":
        # Identify the call site here, one frame below the application, so
        # the stack walk skips as few injector frames as possible.
        lines.append("  if (::scalefuzz::inject::g_recording)")
        lines.append("  {")
        lines.append("    c_.frame = __builtin_frame_address(0);")
        lines.append("    c_.site = ::scalefuzz::inject::site_here(c_.op, __builtin_return_address(0), c_.frame);")
        lines.append("  }")
    if handler in ("init", "finalize", "abort"):
        lines.append(f"  return ::scalefuzz::inject::handle_{handler}(c_, {invoke}, {nb_invoke});")
    else:
        # Local noise (injectors/noise) runs after the call returns.
        lines.append(f"  int rc_ = ::scalefuzz::inject::handle_{handler}(c_, {invoke}, {nb_invoke});")
        lines.append("  ::scalefuzz::inject::noise_after_call(c_.op, static_cast<std::uint8_t>(c_.cls));")
        lines.append("  return rc_;")
    lines.append("}")
    return "\n".join(lines)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: generate.py TABLE.py OUT_DIR")
    table = runpy.run_path(sys.argv[1])["OPS"]
    out = sys.argv[2]
    entries = [parse(e) for e in table]
    names = [e[0] for e in entries]
    if len(set(names)) != len(names):
        sys.exit("duplicate function in table")

    hdr_dir = os.path.join(out, "scalefuzz", "trace")
    os.makedirs(hdr_dir, exist_ok=True)
    hdr = ["// Generated by injectors/wrappers/generate.py from mpi_table.py. Do not edit.",
           "// Op ids of the intercepted MPI functions (Event::op, CallSite::op).",
           "#pragma once", "#include <cstdint>", "",
           "namespace scalefuzz::trace::ops {", "",
           "inline constexpr std::uint16_t kUnknown = 0;"]
    for i, n in enumerate(names, 1):
        hdr.append(f"inline constexpr std::uint16_t {n[4:]} = {i};")
    hdr += [f"inline constexpr std::uint16_t kCount = {len(names) + 1};", "",
            "}  // namespace scalefuzz::trace::ops", ""]
    write(os.path.join(hdr_dir, "ops.hpp"), "\n".join(hdr))

    src = ["// Generated by injectors/wrappers/generate.py from mpi_table.py. Do not edit.",
           "#include <cstdint>", "", "namespace scalefuzz::trace {", "",
           "namespace {", "const char* const kNames[] = {", '    "MPI_?",']
    src += [f'    "{n}",' for n in names]
    src += ["};", "}  // namespace", "",
            "const char* op_name(std::uint16_t op) {",
            "  return op < sizeof kNames / sizeof kNames[0] ? kNames[op] : \"MPI_?\";",
            "}", "", "}  // namespace scalefuzz::trace", ""]
    write(os.path.join(out, "ops.cpp"), "\n".join(src))

    w = ["// Generated by injectors/wrappers/generate.py from mpi_table.py. Do not edit.",
         "// Each wrapper fills a Call from its argument roles and hands it to the",
         "// recorder's handler for the function's family (recorder/handlers.hpp).",
         "#include <mpi.h>", "",
         '#include "handlers.hpp"',
         '#include "hooks.hpp"',
         '#include "receive_guard.hpp"',
         '#include "stall.hpp"',
         '#include "scalefuzz/trace/ops.hpp"', "",
         "namespace ops = ::scalefuzz::trace::ops;",
         "using ::scalefuzz::trace::OpClass;",
         "using namespace ::scalefuzz::trace;  // kFlag* constants", "",
         "// The library is built with hidden visibility; only the MPI symbols are exported.",
         '#define SCALEFUZZ_EXPORT __attribute__((visibility("default")))', ""]
    for i, (name, params, handler, opts) in enumerate(entries, 1):
        w.append(gen_wrapper(i, name, params, handler, opts))
        w.append("")
    write(os.path.join(out, "wrappers.cpp"), "\n".join(w))


def write(path, text):
    # Keep the timestamp when nothing changed so dependents do not rebuild.
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
