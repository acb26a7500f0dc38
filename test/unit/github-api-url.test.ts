/** GITHUB_API_URL and Probot's GHE_HOST: which GitHub the App calls, and the values refused at start-up. */
import { describe, expect, it } from 'vitest';
import { ConfigError, githubApiUrlFromEnv, loadConfig } from '../../server/config.js';

const base = { PARLANCE_DATA_DIR: '/tmp/parlance-config-test', PARLANCE_DEMO: 'false' };

describe('GITHUB_API_URL', () => {
  it('defaults to api.github.com and takes a GitHub Enterprise Server address, without its trailing slash', () => {
    expect(loadConfig(base).githubApp.apiUrl).toBe('https://api.github.com');
    expect(loadConfig({ ...base, GITHUB_API_URL: '' }).githubApp.apiUrl).toBe('https://api.github.com');
    expect(loadConfig({ ...base, GITHUB_API_URL: 'https://github.example.com/api/v3/' }).githubApp.apiUrl).toBe('https://github.example.com/api/v3');
    expect(githubApiUrlFromEnv({ GITHUB_API_URL: 'https://api.github.com', GHE_HOST: undefined, GHE_PROTOCOL: undefined })).toEqual({ ok: true, url: 'https://api.github.com' });
  });

  it("accepts Probot's GHE_HOST (and GHE_PROTOCOL) as <protocol>://<host>/api/v3, agreeing with GITHUB_API_URL when both are set", () => {
    expect(loadConfig({ ...base, GHE_HOST: 'github.example.com' }).githubApp.apiUrl).toBe('https://github.example.com/api/v3');
    expect(loadConfig({ ...base, GHE_HOST: 'github.example.com', GITHUB_API_URL: 'https://github.example.com/api/v3' }).githubApp.apiUrl).toBe('https://github.example.com/api/v3');
    expect(loadConfig({ ...base, GHE_HOST: '127.0.0.1:8443', GHE_PROTOCOL: 'http' }).githubApp.apiUrl).toBe('http://127.0.0.1:8443/api/v3');
  });

  it('allows plain http only to this machine, where the stand-in of the tests listens', () => {
    expect(loadConfig({ ...base, GITHUB_API_URL: 'http://127.0.0.1:4567/api/v3' }).githubApp.apiUrl).toBe('http://127.0.0.1:4567/api/v3');
    expect(loadConfig({ ...base, GITHUB_API_URL: 'http://[::1]:4567' }).githubApp.apiUrl).toBe('http://[::1]:4567');
  });

  it.each([
    [{ GITHUB_API_URL: 'http://github.example.com/api/v3' }, "GITHUB_API_URL='http://github.example.com/api/v3': http is not allowed (the App sends its credentials there; plain http only to 127.0.0.1, [::1] or localhost); expected an https URL such as 'https://github.example.com/api/v3'"],
    [{ GITHUB_API_URL: 'github.example.com' }, "GITHUB_API_URL='github.example.com': not a URL; expected an https URL such as 'https://github.example.com/api/v3'"],
    [{ GITHUB_API_URL: 'ftp://github.example.com' }, "GITHUB_API_URL='ftp://github.example.com': ftp is not allowed"],
    [{ GITHUB_API_URL: 'https://user:pw@github.example.com/api/v3' }, 'must not carry credentials, a query or a fragment'],
    [{ GITHUB_API_URL: 'https://github.example.com/api/v3?x=1' }, 'must not carry credentials, a query or a fragment'],
    [{ GHE_HOST: 'https://github.example.com' }, "GHE_HOST='https://github.example.com': expected the server's host name such as 'github.example.com', without a scheme or path"],
    [{ GHE_HOST: 'github.example.com', GHE_PROTOCOL: 'ftp' }, "GHE_PROTOCOL='ftp': expected 'https'"],
    [{ GHE_HOST: 'github.example.com', GHE_PROTOCOL: 'http' }, "GHE_HOST='github.example.com': http is not allowed"],
    [{ GHE_HOST: 'ghe.one.example', GITHUB_API_URL: 'https://ghe.two.example/api/v3' }, "GITHUB_API_URL='https://ghe.two.example/api/v3' and GHE_HOST='ghe.one.example' name different servers (GHE_HOST means 'https://ghe.one.example/api/v3'); set only GITHUB_API_URL"],
  ])('refuses %j at start-up, naming the variable', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});
