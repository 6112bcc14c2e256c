#include "html_trend.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "text.hpp"

namespace scalefuzz::harness::html {

namespace {

using nlohmann::json;

json read_json(const std::filesystem::path& file, const char* format) {
  std::ifstream in(file);
  if (!in) return nullptr;
  try {
    json j = json::parse(in);
    if (j.is_object() && j.value("format", std::string()) == format) return j;
  } catch (const json::exception&) {
  }
  return nullptr;
}

std::string esc(const std::string& s) { return text::xml_escape(s); }

std::string count_cell(const json& v) { return v.is_number() ? std::to_string(v.get<long long>()) : "–"; }

}  // namespace

std::optional<JobVerdict> job_verdict(const ReportData& data) {
  const json diff = read_json(data.out_dir / "diff.json", "scalefuzz-diff");
  if (diff.is_null() || !diff.contains("fails") || !diff.at("fails").is_boolean()) return std::nullopt;
  JobVerdict v;
  v.fails = diff.at("fails").get<bool>();
  v.fail_on = diff.value("fail_on", std::string("new"));
  if (diff.contains("counts") && diff.at("counts").is_object()) {
    v.new_bugs = diff.at("counts").value("new", 0LL);
    v.still_there = diff.at("counts").value("still_there", 0LL);
  }
  return v;
}

std::string trend_section(const ReportData& data) {
  const json trend = read_json(data.out_dir / "trend.json", "scalefuzz-trend");
  const json diff = read_json(data.out_dir / "diff.json", "scalefuzz-diff");
  if (trend.is_null() && diff.is_null()) return "";
  std::ostringstream out;
  out << "<section id=\"nights\"><h2>Nights</h2>\n";
  if (!diff.is_null()) {
    const auto& c = diff.at("counts");
    out << "<p id=\"night-diff\">Against the night before: <b>" << c.value("new", 0) << " new</b>, "
        << c.value("still_there", 0) << " still there, " << c.value("gone", 0)
        << " gone (warnings and errors); the job " << (diff.value("fails", false) ? "fails" : "passes")
        << " with --fail-on " << esc(diff.value("fail_on", std::string("new"))) << ".</p>\n";
    for (const char* list : {"new", "gone"}) {
      if (!diff.contains(list) || diff.at(list).empty()) continue;
      out << "<p>" << list << ":</p>\n<ul class=\"bugs-" << list << "\">\n";
      for (const auto& b : diff.at(list)) {
        out << "<li><code>" << esc(b.value("fingerprint", std::string())) << "</code> "
            << esc(b.value("signature", std::string()));
        if (b.contains("suppressed"))
          out << " <i>(suppressed: " << esc(b.at("suppressed").value("reason", std::string())) << ")</i>";
        out << "</li>\n";
      }
      out << "</ul>\n";
    }
  }
  if (!trend.is_null() && trend.contains("nights") && trend.at("nights").is_array()) {
    std::size_t most = 1;
    for (const auto& n : trend.at("nights")) most = std::max<std::size_t>(most, n.value("serious_bugs", 0));
    out << "<table id=\"trend\"><thead><tr><th>night</th><th>verdict</th><th>bugs (warnings and errors)</th>"
           "<th>new</th><th>gone</th><th>still there</th></tr></thead><tbody>\n";
    for (const auto& n : trend.at("nights")) {
      const std::size_t serious = n.value("serious_bugs", 0);
      out << "<tr><td>" << esc(n.value("night", std::string())) << "</td><td>"
          << esc(n.value("verdict", std::string())) << "</td><td><span class=\"bar\" style=\"display:inline-block;"
          << "background:#c33;height:0.8em;width:" << (100 * serious / most) << "px\"></span> " << serious << " of "
          << n.value("bugs", 0) << "</td><td>" << count_cell(n.value("new", json())) << "</td><td>"
          << count_cell(n.value("gone", json())) << "</td><td>" << count_cell(n.value("still_there", json()))
          << "</td></tr>\n";
    }
    out << "</tbody></table>\n";
  }
  out << "</section>\n";
  return out.str();
}

}  // namespace scalefuzz::harness::html
