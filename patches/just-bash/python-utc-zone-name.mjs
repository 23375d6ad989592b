// Python's `time.tzname`, `time.localtime().tm_zone` and `datetime.astimezone().tzname()` say `UTC` on a machine
// whose zone is UTC, as glibc does with no TZ and no /etc/localtime: Emscripten's tzset named every zone by its
// offset, which gave `UTC-0000`.
export default {
  title: "Python names the UTC zone 'UTC'",
  upstream: 'src/lib/libcore.js of Emscripten (which builds the vendor/cpython-emscripten/python.cjs just-bash ships) _tzset_js extractZone: name offset 0 "UTC"',
  file: 'vendor/cpython-emscripten/python.cjs',
  edits: [
    {
      find: 'var extractZone=timezoneOffset=>{var sign=',
      replace: 'var extractZone=timezoneOffset=>{if(timezoneOffset===0)return"UTC";var sign=',
    },
  ],
};
