// The silcrow inspector's only script: log in, send the token, the CSRF header and the chosen
// project with every request htmx makes, and show errors. Memory is rendered (escaped) by the
// server, never here.
(function () {
  "use strict";
  var KEY = "silcrow-token";
  var PROJECT_KEY = "silcrow-project";
  var CSRF = "X-Silcrow-CSRF";
  var PROJECT = "X-Silcrow-Project";

  function $(id) { return document.getElementById(id); }
  function token() { return window.sessionStorage.getItem(KEY); }
  function headers() {
    var out = {};
    out[CSRF] = "1";
    var t = token();
    if (t) { out.Authorization = "Bearer " + t; }
    var project = window.sessionStorage.getItem(PROJECT_KEY);
    // A header carries bytes: the root's UTF-8 bytes, one character each (the server reads UTF-8).
    if (project) { out[PROJECT] = unescape(encodeURIComponent(project)); }
    return out;
  }
  // Show a project's notes (its root), or none (""): every panel is loaded again with it.
  function chooseProject(root) {
    if (root) {
      window.sessionStorage.setItem(PROJECT_KEY, root);
    } else {
      window.sessionStorage.removeItem(PROJECT_KEY);
    }
    enter();
  }
  function flash(text) {
    var box = $("flash");
    box.textContent = text || "";
    box.hidden = !text;
  }
  function showLogin(why) {
    $("app").hidden = true;
    $("logout").hidden = true;
    $("who").textContent = "";
    $("login").hidden = false;
    flash(why);
    $("token").focus();
  }
  function errorText(xhr) {
    try { return JSON.parse(xhr.responseText).error || xhr.statusText; } catch (e) { return xhr.statusText; }
  }

  // Log in with the tab's token; ``note``: shown once the page is in.
  function enter(note) {
    var request = new XMLHttpRequest();
    request.open("GET", "/ui/whoami");
    var h = headers();
    Object.keys(h).forEach(function (name) { request.setRequestHeader(name, h[name]); });
    request.onload = function () {
      if (request.status !== 200 && window.sessionStorage.getItem(PROJECT_KEY) &&
          errorText(request).indexOf(PROJECT) >= 0) {
        window.sessionStorage.removeItem(PROJECT_KEY);
        enter("the project is no longer shown: " + errorText(request));
        return;
      }
      if (request.status !== 200) {
        var hadToken = token() !== null;
        window.sessionStorage.removeItem(KEY);
        // No token yet and the server wants one: just the login form, no error.
        showLogin(!hadToken && request.status === 401 ? "" :
          (request.status === 401 ? "that token was refused: " : "") + errorText(request));
        return;
      }
      flash(note || "");
      $("login").hidden = true;
      $("app").hidden = false;
      $("logout").hidden = !token();
      // The server's fragment, escaped there; htmx swaps it like every other fragment.
      window.htmx.swap($("who"), request.responseText, { swapStyle: "innerHTML" });
      window.htmx.trigger(document.body, "silcrow-login");
    };
    request.onerror = function () { showLogin("cannot reach the server"); };
    request.send();
  }

  function redeem(code) {
    var request = new XMLHttpRequest();
    request.open("POST", "/ui/login/once");
    request.setRequestHeader(CSRF, "1");
    request.setRequestHeader("Content-Type", "application/json");
    request.onload = function () {
      if (request.status === 200) {
        window.sessionStorage.setItem(KEY, JSON.parse(request.responseText).token);
        enter();
      } else {
        showLogin(errorText(request));
      }
    };
    request.send(JSON.stringify({ code: code }));
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var h = headers();
    Object.keys(h).forEach(function (name) { event.detail.headers[name] = h[name]; });
  });
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (xhr.status === 401) {
      window.sessionStorage.removeItem(KEY);
      showLogin("the token was refused (revoked?); log in again");
    } else if (xhr.getResponseHeader("Content-Type") && xhr.getResponseHeader("Content-Type").indexOf("html") >= 0) {
      flash("");
      var target = event.detail.target;
      window.htmx.swap(target, xhr.responseText, { swapStyle: "innerHTML" });
    } else {
      flash(errorText(xhr));
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-project]") : null;
    if (button) { chooseProject(button.getAttribute("data-project")); }
  });

  document.addEventListener("DOMContentLoaded", function () {
    $("login-form").addEventListener("submit", function (event) {
      event.preventDefault();
      var value = $("token").value.trim();
      $("token").value = "";
      if (value) { window.sessionStorage.setItem(KEY, value); }
      enter();
    });
    $("logout").addEventListener("click", function () {
      // The server revokes a token the one-time link made; the tab forgets it either way.
      var request = new XMLHttpRequest();
      request.open("POST", "/ui/logout");
      var h = headers();
      Object.keys(h).forEach(function (name) { request.setRequestHeader(name, h[name]); });
      function done(text) {
        window.sessionStorage.removeItem(KEY);
        showLogin(text);
      }
      request.onload = function () {
        done(request.status === 200 ? JSON.parse(request.responseText).message :
          "logged out of this page, but the server did not revoke the token: " + errorText(request));
      };
      request.onerror = function () { done("logged out of this page; the server could not be reached to revoke the token"); };
      request.send();
    });
    var once = /^#once=([A-Za-z0-9_-]+)$/.exec(window.location.hash);
    if (once) {
      window.history.replaceState(null, "", "/");
      redeem(once[1]);
    } else {
      enter();
    }
  });
})();
