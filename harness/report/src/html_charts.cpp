#include "html_charts.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

#include "html_style.hpp"
#include "text.hpp"

namespace scalefuzz::harness::html {

namespace {

// Draws every chart; a chart that fails is replaced by a note instead of
// stopping the others.
constexpr const char* kPageScript = R"js(
(function () {
  document.querySelectorAll('script.chart-config').forEach(function (cfg) {
    var canvas = document.getElementById(cfg.dataset.for);
    if (!canvas) return;
    if (typeof Chart === 'undefined') {
      canvas.parentNode.outerHTML = '<p class="muted">Chart.js was not available when this report was written; the numbers are in the tables.</p>';
      return;
    }
    try {
      var config = JSON.parse(cfg.textContent);
      config.options = config.options || {};
      config.options.responsive = true;
      config.options.maintainAspectRatio = false;
      config.options.animation = false;
      new Chart(canvas, config);
    } catch (e) {
      canvas.parentNode.outerHTML = '<p class="warn">chart not drawn: ' + String(e).replace(/</g, '&lt;') + '</p>';
    }
  });
  document.querySelectorAll('button.copy').forEach(function (button) {
    button.addEventListener('click', function () {
      var code = button.parentNode.querySelector('code');
      var text = code ? code.textContent : '';
      var done = function () { button.textContent = 'copied'; setTimeout(function () { button.textContent = 'copy'; }, 1500); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () {});
      } else {
        var range = document.createRange();
        range.selectNodeContents(code);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        try { document.execCommand('copy'); done(); } catch (e) {}
      }
    });
  });
})();
)js";

}  // namespace

std::string load_chartjs(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}


std::string page_scripts(const std::string& chartjs_source) {
  std::string out;
  std::string lower = chartjs_source;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // A library that contains "</script" cannot be inlined as is; leave it out.
  if (!chartjs_source.empty() && lower.find("</script") == std::string::npos)
    out += "<script>/* Chart.js, inlined from Debian's libjs-chart.js (MIT License) */\n" + chartjs_source +
           "\n</script>\n";
  return out + "<script>" + kPageScript + "</script>\n";
}

std::string outcome_color(const std::string& label) { return std::string(outcome_style(label).fg); }

}  // namespace scalefuzz::harness::html
