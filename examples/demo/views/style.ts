/** The demo's stylesheet, sent once in the page's <head> (the live tree carries only classes). */
export const STYLESHEET = `<style>
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f4f5f7;color:#1d2330}
main{max-width:960px;margin:0 auto;padding:0 16px 48px}
header{display:flex;align-items:center;gap:16px;padding:16px 0;border-bottom:1px solid #dde1e8;margin-bottom:20px;flex-wrap:wrap}
header h1{font-size:20px;margin:0;flex:1 1 auto}
.clock{font-variant-numeric:tabular-nums;color:#5b6475}
nav{display:flex;flex-wrap:wrap;gap:8px;align-items:center;min-width:0}
#who{overflow-wrap:anywhere}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(280px,100%),1fr));gap:16px;align-items:start}
.card{background:#fff;border:1px solid #dde1e8;border-radius:10px;padding:16px 18px;min-width:0}
.card h2{font-size:16px;margin:0 0 12px}
label{display:block;font-size:13px;color:#5b6475;margin:10px 0 4px}
input{width:100%;padding:8px 10px;border:1px solid #c6ccd6;border-radius:6px;font:inherit}
button{font:inherit;padding:6px 12px;border-radius:6px;border:1px solid #c6ccd6;background:#fff;cursor:pointer}
button.primary{background:#2f5fd0;border-color:#2f5fd0;color:#fff}
button.small{padding:2px 8px;font-size:13px}
.row{display:flex;gap:8px;align-items:center}
.row input{flex:1}
ul.list{list-style:none;padding:0;margin:12px 0 0}
ul.list li{display:flex;gap:6px;align-items:center;padding:6px 0;border-top:1px solid #eef0f4}
ul.list li span{flex:1}
ul.list li:first-child button.up,ul.list li:last-child button.down{visibility:hidden}
.muted{color:#5b6475;font-size:13px}
.error{color:#b3261e;margin:8px 0}
.notice{color:#1d6b3a;margin:8px 0}
.strength{font-weight:600;text-transform:uppercase;font-size:12px;letter-spacing:.04em}
.strength-weak{color:#b3261e}.strength-fair{color:#a86200}.strength-strong{color:#1d6b3a}
table{width:100%;border-collapse:collapse}
td,th{text-align:left;padding:6px 4px;border-top:1px solid #eef0f4;font-size:14px;overflow-wrap:anywhere}
.row{flex-wrap:wrap}
/* Phones: each user is a small block of its own, its actions on a line below. */
@media (max-width:640px){#admin table,#admin tbody,#admin tr,#admin td{display:block}#admin thead{display:none}#admin tr{border-top:1px solid #dde1e8;padding:8px 0}#admin td{border:0;padding:2px 0}}
.tag{display:inline-block;padding:0 6px;border-radius:4px;background:#eef0f4;font-size:12px}
.auth{max-width:380px;margin:40px auto}
</style>`;
