// The browser's Open and Save (browser_files.hpp). Runs on the page's main thread (the panels'),
// where emscripten's file system lives. No backslashes in EM_JS (Debian's emcc 3.1.6).
#include "gui/model/browser_files.hpp"

#include <emscripten.h>

#include <cstdlib>

namespace warpscope::gui {

namespace {

EM_JS(void, web_request_upload, (const char* accept), {
    var input = document.createElement('input');
    input.type = 'file';
    input.accept = UTF8ToString(accept);
    input.onchange = function () {
        var f = input.files && input.files[0];
        if (!f) return;
        f.arrayBuffer().then(function (buf) {
            var dir = '/home/web_user/Uploads';
            try { FS.mkdirTree(dir); } catch (e) {}
            var path = dir + '/' + f.name.split('/').join('_');
            FS.writeFile(path, new Uint8Array(buf));
            Module.warpscopeUploads = Module.warpscopeUploads || [];
            Module.warpscopeUploads.push(path);
        });
    };
    input.click();
});

EM_JS(char*, web_take_upload, (), {
    var q = Module.warpscopeUploads;
    if (!q || !q.length) return 0;
    var s = q.shift();
    var n = lengthBytesUTF8(s) + 1;
    var p = _malloc(n);
    stringToUTF8(s, p, n);
    return p;
});

EM_JS(void, web_download, (const char* path), {
    var p = UTF8ToString(path);
    var data = FS.readFile(p);
    var a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([data], {type: 'application/octet-stream'}));
    a.download = p.split('/').pop();
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 2000);
});

} // namespace

void requestBrowserUpload(const char* accept) { web_request_upload(accept); }

std::string takeBrowserUpload() {
    char* p = web_take_upload();
    if (!p) return {};
    std::string s(p);
    std::free(p);
    return s;
}

void offerBrowserDownload(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) web_download(path.string().c_str());
}

} // namespace warpscope::gui
